// stream/promises pipeline with an async generator transform; an error rejects.
import { pipeline } from 'node:stream/promises';
import { Readable, Writable } from 'node:stream';
const got = [];
await pipeline(
  Readable.from([1, 2, 3, 4]),
  async function* (src) { for await (const n of src) if (n % 2 === 0) yield String(n * 10); },
  new Writable({ write(c, _e, cb) { got.push(c.toString()); cb(); } }),
);
console.log(got.join(','));
try {
  await pipeline(
    Readable.from(['x']),
    async function* (src) { for await (const _ of src) throw new Error('transform failed'); },
    new Writable({ write(_c, _e, cb) { cb(); } }),
  );
} catch (e) {
  console.log('rejected', e.message);
}
