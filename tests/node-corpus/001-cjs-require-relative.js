// require of relative files: with and without the extension.
const math = require('./fixtures/cjs/math');
const math2 = require('./fixtures/cjs/math.js');
console.log(math.add(2, 3), math.mul(4, 5), math.PI2);
console.log('same object:', math === math2);
console.log(Object.keys(math).join(','));
