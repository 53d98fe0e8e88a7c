// Subpath patterns in "exports", and a null target that blocks a path.
const { createRequire } = require('module');
const req = createRequire(__dirname + '/fixtures/x.js');
console.log(req('subpath-pkg'));
console.log(req('subpath-pkg/feature/alpha'));
console.log(req('subpath-pkg/feature/beta'));
for (const spec of ['subpath-pkg/feature/gamma', 'subpath-pkg/src/main.js', 'subpath-pkg/feature/internal/x']) {
  try {
    req(spec);
    console.log('loaded', spec);
  } catch (e) {
    console.log(spec, e.code);
  }
}
