// path.relative between absolute paths.
const path = require('path');
const pairs = [['/a/b/c', '/a/d'], ['/a', '/a/b/c'], ['/a/b', '/a/b'], ['/x/y', '/'], ['/', '/p/q']];
for (const [f, t] of pairs) console.log(f, t, JSON.stringify(path.relative(f, t)));
