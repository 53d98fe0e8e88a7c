// Misc sync calls: truncate, symlink/readlink/lstat, realpath, access modes.
const fs = require('fs');
const path = require('path');
const d = 'scratch-044';
fs.rmSync(d, { recursive: true, force: true });
fs.mkdirSync(d);
fs.writeFileSync(`${d}/f`, '0123456789');
fs.truncateSync(`${d}/f`, 4);
console.log(fs.readFileSync(`${d}/f`, 'utf8'));
fs.symlinkSync('f', `${d}/link`);
console.log(fs.readlinkSync(`${d}/link`), fs.lstatSync(`${d}/link`).isSymbolicLink(), fs.statSync(`${d}/link`).isFile());
console.log(path.relative(process.cwd(), fs.realpathSync(`${d}/link`)));
fs.accessSync(`${d}/f`, fs.constants.R_OK | fs.constants.W_OK);
console.log('accessible', typeof fs.constants.F_OK);
fs.rmSync(d, { recursive: true });
