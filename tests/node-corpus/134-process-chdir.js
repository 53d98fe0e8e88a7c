// process.chdir changes what relative paths mean; a bad chdir throws ENOENT.
const fs = require('fs');
const path = require('path');
const start = process.cwd();
process.chdir('fixtures/data');
console.log(path.relative(start, process.cwd()), fs.readFileSync('lines.txt', 'utf8').split('\n')[0]);
try {
  process.chdir('no-such-dir');
} catch (e) {
  console.log(e.code);
}
process.chdir(start);
console.log(fs.existsSync('fixtures'));
