// util.format: %s %d %i %f %j %o %O %%, extra and missing arguments.
const util = require('util');
console.log(util.format('%s=%d', 'n', 42));
console.log(util.format('%i %f', '12.9px', '1.5'));
console.log(util.format('%j', { a: [1, 2] }), util.format('%%'));
console.log(util.format('%s', { toString() { return 'custom'; } }), util.format('%s', [1, [2]]));
console.log(util.format('%d %s', 1), util.format('a', 'b', 3, { c: 1 }));
console.log(util.format('%o', [1]), util.format('%O', { x: { y: { z: {} } } }));
console.log(util.format('%s', 5n), util.format('%d', 5n), util.format('%s', Symbol('s')), util.format('%s', -0));
const circ = {}; circ.self = circ;
console.log(util.format('%j', circ));
console.log('console too: %s and %d', 'str', 7);
