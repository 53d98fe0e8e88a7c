// write() returns false past highWaterMark; 'drain' follows.
const { Writable } = require('stream');
const w = new Writable({
  highWaterMark: 4,
  write(chunk, _enc, cb) { setImmediate(cb); },
});
console.log(w.write('ab'), w.write('cd'), w.writableLength, w.writableNeedDrain);
w.on('drain', () => {
  console.log('drain', w.writableLength);
  w.end('z');
});
w.on('finish', () => console.log('finish', w.writableFinished));
