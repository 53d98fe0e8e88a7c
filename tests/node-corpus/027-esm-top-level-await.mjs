// Top-level await in the entry and in an imported module.
import { value } from './fixtures/esm/tla.mjs';
console.log(value);
const x = await new Promise((r) => setTimeout(() => r('after timeout'), 5));
console.log(x);
