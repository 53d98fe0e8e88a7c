// Built-in modules by name, with and without node:, are the same objects.
const names = ['fs', 'path', 'events', 'util', 'os', 'url', 'crypto', 'zlib', 'stream', 'buffer', 'assert'];
for (const n of names) {
  console.log(n, typeof require(n), require(n) === require('node:' + n));
}
const { builtinModules } = require('module');
console.log(builtinModules.includes('fs'), builtinModules.includes('child_process'));
