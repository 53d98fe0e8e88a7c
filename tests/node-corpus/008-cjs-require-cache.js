// require.cache: the same module object until its entry is deleted.
const path = require('path');
const a = require('./fixtures/cjs/counter');
a.next(); a.next();
const b = require('./fixtures/cjs/counter');
console.log(b.next(), globalThis.__loads);
const key = require.resolve('./fixtures/cjs/counter');
console.log(key in require.cache, path.basename(require.cache[key].filename));
delete require.cache[key];
const c = require('./fixtures/cjs/counter');
console.log(c.next(), globalThis.__loads, a === c);
