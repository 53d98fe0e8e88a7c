import fs from 'node:fs';
import { open, readFile } from 'node:fs/promises';
console.log(typeof fs.ReadStream, typeof fs.createReadStream, 'ReadStream' in fs);
fs.writeFileSync('q.txt', 'abc');
const fh = await open('q.txt', 'r');
console.log(await readFile(fh, 'utf8'));
await fh.close();
const rs = fs.createReadStream('q.txt');
console.log(rs instanceof fs.ReadStream);
// error from a stream in for await
const { Readable } = await import('node:stream');
const r = new Readable({ read() { this.destroy(new Error('bad')); } });
try { for await (const c of r) console.log(c); } catch (e) { console.log('caught', e.message); }
// async iterator break destroys
const r2 = Readable.from([1, 2, 3]);
for await (const c of r2) { console.log(c); break; }
console.log(r2.destroyed);
// write stream with start in existing file
fs.writeFileSync('s.txt', '0123456789');
const ws = fs.createWriteStream('s.txt', { flags: 'r+', start: 3 });
ws.end('AB', () => console.log(fs.readFileSync('s.txt', 'utf8')));
