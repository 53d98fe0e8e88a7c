// A package in node_modules with "main", and a scoped package.
const user = require('./fixtures/deep/a/b/user');
console.log(JSON.stringify(user));
const m = require('module');
const req = m.createRequire(require.resolve('./fixtures/deep/a/b/user'));
console.log(JSON.stringify(req('simple-pkg')), JSON.stringify(req('@corp/util')));
