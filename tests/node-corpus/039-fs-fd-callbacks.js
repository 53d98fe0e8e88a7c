// fd-level callbacks: open, write, read, close in sequence.
const fs = require('fs');
fs.rmSync('scratch-039', { recursive: true, force: true });
fs.mkdirSync('scratch-039');
fs.open('scratch-039/f', 'w+', (err, fd) => {
  if (err) throw err;
  fs.write(fd, 'callback data', (err, written, str) => {
    console.log('wrote', written, str);
    const buf = Buffer.alloc(8);
    fs.read(fd, buf, 0, 8, 0, (err, n, b) => {
      console.log('read', n, b.toString(), b === buf);
      fs.close(fd, (err) => {
        console.log('closed', err);
        fs.rmSync('scratch-039', { recursive: true });
      });
    });
  });
});
