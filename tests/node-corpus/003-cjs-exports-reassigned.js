// `exports = ...` rebinds the local only; module.exports wins.
const m = require('./fixtures/cjs/broken-exports');
console.log(JSON.stringify(m));
console.log('lost' in m, m.kept);
