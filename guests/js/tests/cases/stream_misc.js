import { Readable, Writable, Transform, PassThrough, pipeline, finished, Duplex } from 'node:stream';
import * as sp from 'node:stream/promises';
import { once } from 'node:events';
import util from 'node:util';
import readline from 'node:readline';
const log = console.log;
async function* gen() { yield 'a'; await null; yield 'b'; }
const w = new Writable({
  construct(cb) { log('construct'); setTimeout(cb, 1); },
  write(c, e, cb) { log('w', String(c)); cb(); },
});
w.write('early');
Readable.from(gen()).pipe(w);
await once(w, 'finish');
log('finished event');
await new Promise((r) => finished(w, (e) => { log('fin after', e); r(); }));
const pp = util.promisify(pipeline);
await pp(Readable.from(['x']), new PassThrough(), new Writable({ write(c, e, cb) { log('pp', String(c)); cb(); } }));
try {
  await sp.pipeline(Readable.from(['x']), new Transform({ transform(c, e, cb) { cb(new Error('nope')); } }), new PassThrough());
} catch (e) { log('rejected', e.message); }
const t = new Transform({ objectMode: true, highWaterMark: 1, transform(o, e, cb) { cb(null, { ...o, seen: true }); } });
t.write({ a: 1 }); t.write({ a: 2 }); t.end();
for await (const o of t) log(o);
const d = Duplex.from(['p', 'q']);
log(await d.toArray());
const rs = new Readable({ read() {} });
const out = [];
const rl = readline.createInterface({ input: rs, output: new Writable({ write(c, e, cb) { out.push(String(c)); cb(); } }) });
rl.setPrompt('>> ');
rl.prompt();
rl.on('line', (l) => { log('cmd', l); if (l === 'quit') rl.close(); else rl.prompt(); });
rl.on('close', () => log('out', JSON.stringify(out.join(''))));
rs.push('one\ntwo\nquit\nafter\n');
