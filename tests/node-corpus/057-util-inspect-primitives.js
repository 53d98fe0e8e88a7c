// util.inspect of primitives and simple containers.
const { inspect } = require('util');
const values = [1, -0, 1.5, NaN, Infinity, 10n, 'str', "it's", 'q"\'', true, null, undefined, Symbol('s'), Symbol()];
for (const v of values) console.log(inspect(v));
console.log(inspect([1, 'a', [2, [3, [4, [5]]]]]));
console.log(inspect({ a: 1, 'b-c': 2, [Symbol('k')]: 3, 4: 'four' }));
console.log(inspect([, 1, , , 2]), inspect(new Array(3)), inspect([]), inspect({}));
