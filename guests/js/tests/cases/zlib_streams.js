import zlib from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { Readable, Writable } from 'node:stream';
const text = 'stream me '.repeat(1000);
function collect() {
  const chunks = [];
  const w = new Writable({ write(c, e, cb) { chunks.push(c); cb(); } });
  w.result = () => Buffer.concat(chunks);
  return w;
}
for (const [c, d] of [['createGzip', 'createGunzip'], ['createDeflate', 'createInflate'], ['createDeflateRaw', 'createInflateRaw'], ['createBrotliCompress', 'createBrotliDecompress'], ['createGzip', 'createUnzip']]) {
  const sink = collect();
  await pipeline(Readable.from([text.slice(0, 3000), text.slice(3000)]), zlib[c](), zlib[d](), sink);
  console.log(c, d, sink.result().toString() === text);
}
const gz = zlib.createGzip();
console.log(gz instanceof zlib.Gzip, typeof gz.pipe, gz.constructor.name);
const parts = [];
gz.on('data', (d) => parts.push(d));
const ended = new Promise((resolve) => gz.on('end', () => { console.log('end', zlib.gunzipSync(Buffer.concat(parts)).toString()); resolve(); }));
gz.write('hello ');
gz.end('world');
await ended;
const bad = zlib.createGunzip();
bad.on('error', (e) => console.log('error', e.message, e.code, e.errno));
bad.end(Buffer.from('not gzip data'));
await new Promise((resolve) => bad.on('close', resolve));
try { await pipeline(Readable.from([zlib.deflateSync('x').subarray(0, 4)]), zlib.createInflate(), collect()) } catch (e) { console.log('pipeline', e.message, e.code) }
const sink = collect();
const src = zlib.gzipSync('from sync');
const gun = zlib.createGunzip();
gun.pipe(sink);
sink.on('finish', () => console.log('piped', sink.result().toString()));
gun.end(src);
