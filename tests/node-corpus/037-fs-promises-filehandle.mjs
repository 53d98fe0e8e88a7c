// FileHandle from fs/promises open(): write, read at a position, close.
import { open, rm, mkdir } from 'node:fs/promises';
await rm('scratch-037', { recursive: true, force: true });
await mkdir('scratch-037');
const fh = await open('scratch-037/f.bin', 'w+');
console.log(typeof fh.fd);
await fh.write('abcdefghij');
const buf = Buffer.alloc(4);
const { bytesRead } = await fh.read(buf, 0, 4, 3);
console.log(bytesRead, buf.toString());
console.log((await fh.stat()).size);
await fh.close();
await rm('scratch-037', { recursive: true });
