// A require cycle sees the partial exports of the module being loaded.
const a = require('./fixtures/cjs/cycle/a');
const b = require('./fixtures/cjs/cycle/b');
console.log('main: a.done =', a.done, 'b.done =', b.done);
