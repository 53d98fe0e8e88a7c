import { open, writeFile } from 'node:fs/promises';
import fs from 'node:fs';
await writeFile('l.txt', 'a\nb\r\nc');
const fh = await open('l.txt');
for await (const line of fh.readLines()) console.log(JSON.stringify(line));
console.log(fh.fd);
const fh2 = await open('l.txt');
const rs = fh2.createReadStream({ encoding: 'utf8' });
rs.on('data', (d) => console.log('d', JSON.stringify(d)));
rs.on('close', () => console.log('closed', fh2.fd));
const fd = fs.openSync('l.txt');
fs.createReadStream(null, { fd, start: 2 }).on('data', (d) => console.log('fd data', JSON.stringify(String(d)))).on('close', () => {
  try { fs.fstatSync(fd); } catch (e) { console.log('fd closed', e.code); }
});
