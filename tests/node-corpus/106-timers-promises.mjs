// node:timers/promises: setTimeout, setImmediate, setInterval as async iterator.
import { setTimeout as sleep, setImmediate as nextTurn, setInterval as every } from 'node:timers/promises';
console.log(await sleep(2, 'slept value'));
console.log(await nextTurn('immediate value'));
let n = 0;
for await (const v of every(1, 'tick')) {
  console.log(v, ++n);
  if (n === 3) break;
}
const ac = new AbortController();
const p = sleep(10000, null, { signal: ac.signal });
ac.abort();
try {
  await p;
} catch (e) {
  console.log(e.name, e.code);
}
