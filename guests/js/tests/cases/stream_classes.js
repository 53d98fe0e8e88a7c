import { Readable, Writable, Transform, pipeline, PassThrough } from 'node:stream';
import util from 'node:util';
import { StringDecoder } from 'node:string_decoder';
class Upper extends Transform {
  _transform(chunk, enc, cb) { this.push(chunk.toString().toUpperCase()); cb(); }
}
function Old(opts) { Readable.call(this, opts); this.n = 0; }
util.inherits(Old, Readable);
Old.prototype._read = function () { this.push(this.n < 3 ? String(this.n++) : null); };
const o = new Old();
console.log(o instanceof Readable, new PassThrough() instanceof Writable, new PassThrough() instanceof Readable, Object.keys(o).length > 0);
pipeline(process.stdin, new Upper(), process.stdout, (err) => {
  console.log('pipeline done', err);
  const r = new Readable({ read() {} });
  r.push(null);
  r.on('end', () => {
    try { r.push('x'); } catch (e) { console.log('thrown', e); }
  });
  r.on('error', (e) => console.log(String(e.stack).split('\n')[0], e.code, e.name, e instanceof Error));
  r.resume();
  const w = new Writable({ write(c, e, cb) { cb(); } });
  try { w.write(null); } catch (e) { console.log(e.name, e.code, e.message); }
  try { w.write(5); } catch (e) { console.log(e.name, e.code, e.message); }
  const d = new StringDecoder('utf8');
  const b = Buffer.from('h€llo');
  console.log(JSON.stringify(d.write(b.subarray(0, 2))), JSON.stringify(d.write(b.subarray(2, 3))), JSON.stringify(d.end(b.subarray(3))));
  const d2 = new StringDecoder('base64');
  console.log(d2.write(Buffer.from('ab')), d2.write(Buffer.from('cd')), d2.end());
  const d3 = new StringDecoder('hex');
  console.log(d3.write(Buffer.from([1, 255])), d3.encoding, new StringDecoder('ucs2').encoding, new StringDecoder().encoding);
});
o.on('data', (c) => console.log('old', c.toString()));
