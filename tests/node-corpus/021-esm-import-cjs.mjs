// Importing CommonJS: the default is module.exports; named exports detected.
import cjs, { alpha, beta, gamma } from './fixtures/esm/cjs-lib.cjs';
import fn from './fixtures/esm/cjs-fn.cjs';
import * as ns from './fixtures/esm/cjs-lib.cjs';
console.log(alpha, beta(), gamma);
console.log(JSON.stringify(Object.keys(cjs)));
console.log(fn(), typeof fn);
console.log(Object.keys(ns).sort().join(','));
