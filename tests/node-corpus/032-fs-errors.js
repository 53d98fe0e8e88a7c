// Errors of fs: code, errno, syscall, and the message with the path.
const fs = require('fs');
const tries = [
  () => fs.readFileSync('fixtures/data/missing.txt'),
  () => fs.readdirSync('fixtures/data/lines.txt'),
  () => fs.mkdirSync('fixtures/data'),
  () => fs.rmdirSync('fixtures/data/tree'),
  () => fs.readFileSync('fixtures/data'),
];
for (const t of tries) {
  try {
    t();
  } catch (e) {
    console.log(e.code, e.syscall, e.errno, e.message);
  }
}
