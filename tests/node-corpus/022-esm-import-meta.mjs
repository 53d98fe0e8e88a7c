// import.meta.url is a file: URL; the relative path derived from it.
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { file } from './fixtures/esm/where.mjs';
const me = fileURLToPath(import.meta.url);
console.log(import.meta.url.startsWith('file:///'), path.basename(me));
console.log(path.relative(process.cwd(), me), file);
console.log(new URL('./fixtures/data/lines.txt', import.meta.url).pathname.endsWith('/fixtures/data/lines.txt'));
console.log(typeof require, typeof module, typeof __filename);
