// createWriteStream: write, end with a callback, 'finish' then 'close'.
const fs = require('fs');
fs.rmSync('scratch-042', { recursive: true, force: true });
fs.mkdirSync('scratch-042');
const ws = fs.createWriteStream('scratch-042/out.txt');
ws.write('one\n');
ws.write(Buffer.from('two\n'));
ws.on('finish', () => console.log('finish'));
ws.on('close', () => {
  console.log('close', ws.bytesWritten);
  console.log(JSON.stringify(fs.readFileSync('scratch-042/out.txt', 'utf8')));
  fs.rmSync('scratch-042', { recursive: true });
});
ws.end('three\n', () => console.log('end callback'));
