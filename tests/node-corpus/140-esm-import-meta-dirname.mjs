// import.meta.dirname/filename (node 20.11+) and import.meta.resolve.
import path from 'node:path';
console.log(path.basename(import.meta.filename), path.relative(process.cwd(), import.meta.dirname) === '');
const r = import.meta.resolve('./fixtures/esm/lib.mjs');
console.log(r.startsWith('file:///'), r.endsWith('/fixtures/esm/lib.mjs'));
console.log(import.meta.resolve('node:fs'), import.meta.resolve('fs'));
