// readdirSync: names, withFileTypes, recursive (sorted for stability).
const fs = require('fs');
console.log(fs.readdirSync('fixtures/data/tree').sort().join(' '));
for (const d of fs.readdirSync('fixtures/data/tree', { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
  console.log(d.name, d.isFile(), d.isDirectory());
}
console.log(fs.readdirSync('fixtures/data/tree', { recursive: true }).sort().join(' '));
