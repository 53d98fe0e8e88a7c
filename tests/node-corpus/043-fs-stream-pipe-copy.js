// read stream piped into a write stream copies the file; append flag.
const fs = require('fs');
fs.rmSync('scratch-043', { recursive: true, force: true });
fs.mkdirSync('scratch-043');
const out = fs.createWriteStream('scratch-043/copy.csv');
fs.createReadStream('fixtures/data/table.csv').pipe(out);
out.on('close', () => {
  const app = fs.createWriteStream('scratch-043/copy.csv', { flags: 'a' });
  app.end('delta,4\n');
  app.on('close', () => {
    console.log(fs.readFileSync('scratch-043/copy.csv', 'utf8'));
    fs.rmSync('scratch-043', { recursive: true });
  });
});
