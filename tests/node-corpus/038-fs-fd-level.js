// fd-level openSync/writeSync/readSync/closeSync, with positions.
const fs = require('fs');
fs.rmSync('scratch-038', { recursive: true, force: true });
fs.mkdirSync('scratch-038');
const fd = fs.openSync('scratch-038/f.txt', 'w');
console.log(typeof fd, fd > 2);
console.log(fs.writeSync(fd, 'hello '), fs.writeSync(fd, Buffer.from('there')));
fs.closeSync(fd);
const rd = fs.openSync('scratch-038/f.txt', 'r');
const buf = Buffer.alloc(20);
const n = fs.readSync(rd, buf, 0, 20, null);
console.log(n, JSON.stringify(buf.toString('utf8', 0, n)));
console.log(fs.readSync(rd, buf, 0, 5, 6), buf.toString('utf8', 0, 5));
console.log(fs.fstatSync(rd).size);
fs.closeSync(rd);
try {
  fs.closeSync(rd);
} catch (e) {
  console.log(e.code);
}
fs.rmSync('scratch-038', { recursive: true });
