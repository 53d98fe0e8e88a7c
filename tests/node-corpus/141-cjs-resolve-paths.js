// require.resolve with `paths`, require.resolve.paths, and module.paths' shape.
const path = require('path');
const rel = (p) => path.relative(process.cwd(), p);
console.log(rel(require.resolve('local-pkg', { paths: ['fixtures/deep/a/b'] })));
console.log(rel(require.resolve('simple-pkg', { paths: [path.join(__dirname, 'fixtures/cjs')] })));
console.log(require.resolve.paths('fs'), require.resolve.paths('./x').map(rel));
const mine = require.resolve.paths('anything').map(rel);
console.log(mine[0], mine.includes('../node_modules'));
console.log(module.paths.map(rel)[0]);
