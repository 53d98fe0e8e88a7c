// require() of an ES module (node 20.19+ loads it synchronously).
const m = require('./fixtures/esm/lib.mjs');
console.log(m.one, m.double(21), m.default, typeof m);
console.log(Object.keys(m).sort().join(','));
