// A Hash is a stream: pipe a file through it; copy() forks the state.
const crypto = require('crypto');
const fs = require('fs');
const h = crypto.createHash('sha256');
fs.createReadStream('fixtures/data/lines.txt').pipe(h).on('finish', () => {
  console.log('stream', h.read().toString('hex'));
  console.log('whole ', crypto.createHash('sha256').update(fs.readFileSync('fixtures/data/lines.txt')).digest('hex'));
});
const a = crypto.createHash('md5').update('abc');
const b = a.copy();
b.update('def');
console.log(a.digest('hex'), b.digest('hex'));
try {
  a.digest('hex');
} catch (e) {
  console.log(e.code);
}
