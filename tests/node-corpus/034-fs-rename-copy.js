// renameSync, copyFileSync, and COPYFILE_EXCL refusing to overwrite.
const fs = require('fs');
const d = 'scratch-034';
fs.rmSync(d, { recursive: true, force: true });
fs.mkdirSync(d);
fs.writeFileSync(`${d}/one`, '1');
fs.renameSync(`${d}/one`, `${d}/two`);
fs.copyFileSync(`${d}/two`, `${d}/three`);
console.log(fs.readdirSync(d).sort().join(','), fs.readFileSync(`${d}/three`, 'utf8'));
try {
  fs.copyFileSync(`${d}/two`, `${d}/three`, fs.constants.COPYFILE_EXCL);
} catch (e) {
  console.log(e.code);
}
fs.rmSync(d, { recursive: true });
