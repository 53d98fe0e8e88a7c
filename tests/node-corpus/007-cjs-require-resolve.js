// require.resolve: files, directories, packages; paths shown relative.
const path = require('path');
const rel = (p) => path.relative(process.cwd(), p);
console.log(rel(require.resolve('./fixtures/cjs/math')));
console.log(rel(require.resolve('./fixtures/cjs/dir-index')));
console.log(rel(require.resolve('./fixtures/cjs/dir-main')));
console.log(rel(require.resolve('./fixtures/cjs/config')));
console.log(require.resolve('fs'), require.resolve('node:path'));
try {
  require.resolve('./fixtures/cjs/nope');
} catch (e) {
  console.log(e.code);
}
