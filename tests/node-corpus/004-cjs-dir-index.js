// A directory resolves to its index.js, or to package.json "main".
console.log(require('./fixtures/cjs/dir-index').from);
console.log(require('./fixtures/cjs/dir-main').from);
console.log(require('./fixtures/cjs/dir-main/').from);
