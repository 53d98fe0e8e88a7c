// createRequire gives an ES module a CommonJS require.
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const math = require('./fixtures/cjs/math.js');
console.log(math.add(1, 2));
console.log(require('./fixtures/cjs/config.json').name);
console.log(require('path').sep);
console.log(typeof require.resolve, typeof require.cache);
