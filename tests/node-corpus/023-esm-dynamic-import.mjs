// Dynamic import(): ESM, CJS and built-ins, and a failing one.
const lib = await import('./fixtures/esm/lib.mjs');
console.log(lib.default, lib.one);
const cjs = await import('./fixtures/esm/cjs-lib.cjs');
console.log(cjs.alpha, cjs.default.gamma);
const fs = await import('node:fs');
console.log(typeof fs.readFileSync, typeof fs.default.readFileSync);
try {
  await import('./fixtures/esm/missing.mjs');
} catch (e) {
  console.log(e.code);
}
