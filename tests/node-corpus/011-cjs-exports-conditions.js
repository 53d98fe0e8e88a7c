// package.json "exports" with conditions: require picks "require" and "node".
const { createRequire } = require('module');
const req = createRequire(__dirname + '/fixtures/cjs/');
console.log(JSON.stringify(req('cond-pkg')));
console.log(req('cond-pkg/extra'));
console.log(req('cond-pkg/package.json').version);
try {
  req('cond-pkg/dist/hidden.js');
} catch (e) {
  console.log(e.code);
}
