// Static import of an ES module: named, default, namespace, live bindings.
import lib, { one, double, counter, bump } from './fixtures/esm/lib.mjs';
import * as ns from './fixtures/esm/lib.mjs';
console.log(lib, one, double(5));
console.log(counter);
bump();
console.log(counter, ns.counter);
console.log(Object.keys(ns).join(','), ns[Symbol.toStringTag]);
