// PassThrough and Duplex; Readable.toArray and stream utilities.
const { PassThrough, Duplex, Readable, finished } = require('stream');
const pt = new PassThrough();
pt.end('through');
pt.on('data', (d) => console.log('passthrough', d.toString()));
const d = new Duplex({
  read() { this.push('from duplex'); this.push(null); },
  write(c, _e, cb) { console.log('duplex got', c.toString()); cb(); },
});
d.on('data', (c) => console.log('duplex read', c.toString()));
d.write('to duplex');
d.end();
finished(d, (err) => {
  console.log('finished', err);
  Readable.from([3, 1, 2]).map((x) => x * 2).toArray().then((a) => console.log('toArray', a));
});
