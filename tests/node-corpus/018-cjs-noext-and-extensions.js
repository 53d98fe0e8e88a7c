// A file without extension loads as JavaScript; require.extensions keys.
console.log(require('./fixtures/cjs/noext'));
console.log(Object.keys(require.extensions).join(' '));
