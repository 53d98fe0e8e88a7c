import S from 'stream';
const { Readable, Writable, Duplex, Transform, PassThrough, pipeline, finished } = S;
const log = (...a) => console.log(...a);
const steps = [];
const step = (f) => steps.push(f);
step((done) => {
  // backpressure with pipe
  let n = 0;
  const r = new Readable({ highWaterMark: 4, read() { n++; if (n > 5) this.push(null); else this.push('x'.repeat(3)); log('read', n, this.readableLength); } });
  const w = new Writable({ highWaterMark: 5, write(c, e, cb) { log('write', c.length); setImmediate(cb); } });
  w.on('drain', () => log('drain'));
  w.on('finish', () => log('finish'));
  r.on('end', () => log('end'));
  w.on('close', () => { log('close'); done(); });
  r.pipe(w);
});
step((done) => {
  const w = new Writable({ writev(chunks, cb) { log('writev', chunks.map((c) => c.chunk.toString())); cb(); }, write(c, e, cb) { log('write1', c.toString()); cb(); } });
  w.cork(); w.write('a'); w.write('b'); w.uncork();
  w.write('c'); w.write('d');
  w.end('e');
  w.on('finish', () => { log('fin'); done(); });
});
step((done) => {
  const w = new Writable({ write(c, e, cb) { cb(); }, final(cb) { log('final'); setTimeout(cb, 2); } });
  w.on('prefinish', () => log('prefinish')); w.on('error', (e) => log('w3 err', e.code));
  w.on('finish', () => log('finish'));
  w.on('close', () => { log('close'); done(); });
  w.end();
  w.write('late', (err) => log('late cb', err && err.code));
});
step((done) => {
  const r = new Readable({ read() {} });
  r.on('error', (e) => log('error', e.message));
  r.on('close', () => { log('close', r.destroyed); done(); });
  r.destroy(new Error('boom'));
  log('destroyed', r.destroyed);
});
step((done) => {
  const r = new Readable({ objectMode: true, read() {} });
  r.push({ a: 1 }); r.push('s'); r.push(2); r.push(null);
  log(r.read(), r.readableLength);
  r.on('data', (d) => log('data', d));
  r.on('end', () => { log('end'); done(); });
});
step((done) => {
  const d = new Duplex({ read() { this.push('r'); this.push(null); }, write(c, e, cb) { log('dw', c.toString()); cb(); } });
  d.on('data', (c) => log('dd', c.toString()));
  d.on('end', () => log('dend'));
  d.on('finish', () => log('dfinish'));
  d.on('close', () => { log('dclose'); done(); });
  d.write('w'); d.end();
});
step((done) => {
  pipeline(Readable.from(['a', 'b']), async function* (src) { for await (const c of src) yield c.toUpperCase(); }, async function (src) { let s = ''; for await (const c of src) s += c; return s; }, (err, val) => { log('pl', err, val); done(); });
});
step((done) => {
  const t = new Transform({ transform(c, e, cb) { cb(new Error('tx')); } });
  pipeline(Readable.from(['a']), t, new PassThrough(), (err) => { log('pl err', err.message); done(); });
});
step((done) => {
  const r = new Readable({ read() {} });
  r.setEncoding('utf8');
  const euro = Buffer.from('€');
  r.push(euro.subarray(0, 1)); r.push(euro.subarray(1)); r.push(null);
  r.on('data', (c) => log('enc', JSON.stringify(c)));
  r.on('end', () => { r.unshift; done(); });
});
step((done) => {
  const r = new Readable({ read() {} });
  r.push('abc'); r.push('def');
  log(String(r.read(2)), String(r.read(3)), r.readableLength);
  r.unshift('Z');
  log(String(r.read()));
  r.push(null);
  r.resume();
  r.on('end', () => { log('end'); r.push('x'); });
  r.on('error', (e) => { log('err', e.code, e.message); done(); });
});
step((done) => {
  const w = new Writable({ write(c, e, cb) { cb(new Error('wfail')); } });
  w.on('error', (e) => log('werror', e.message));
  w.on('close', () => { log('wclose'); done(); });
  w.write('x', (err) => log('wcb', err && err.message));
});
let i = 0;
const next = () => { if (i < steps.length) { log('--', i); steps[i++](next); } };
next();
