// A module's body runs once, however often it is required.
console.log('before');
require('./fixtures/cjs/side-effect');
require('./fixtures/cjs/side-effect.js');
require('./fixtures/cjs/side-effect');
console.log('after');
