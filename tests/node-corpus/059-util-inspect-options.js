// inspect options: depth, compact, breakLength, sorted, showHidden, colors.
const { inspect } = require('util');
const deep = { l1: { l2: { l3: { l4: { l5: 1 } } } } };
console.log(inspect(deep));
console.log(inspect(deep, { depth: 0 }));
console.log(inspect(deep, { depth: Infinity }));
const wide = { alpha: 'aaaaaaaaaaaa', beta: 'bbbbbbbbbbbbb', gamma: 'ccccccccccccc', delta: 'dddddddddddd', eps: [1, 2, 3] };
console.log(inspect(wide));
console.log(inspect(wide, { breakLength: Infinity }));
console.log(inspect(wide, { compact: false }));
console.log(inspect({ b: 1, a: 2, c: 3 }, { sorted: true }));
console.log(inspect([1, 2, 3], { showHidden: true }));
console.log(JSON.stringify(inspect({ n: 1, s: 'x' }, { colors: true })));
console.log(inspect(Array.from({ length: 120 }, (_, i) => i)).split('\n').length);
console.log(inspect('x'.repeat(20), { maxStringLength: 5 }));
