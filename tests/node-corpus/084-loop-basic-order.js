// The basic order: sync, nextTick, promise microtasks, then timers.
console.log('sync 1');
setTimeout(() => console.log('timeout'), 0);
// (setTimeout 0 against setImmediate at top level is a race in node: not here.)
Promise.resolve().then(() => console.log('promise 1'));
process.nextTick(() => console.log('nextTick 1'));
queueMicrotask(() => console.log('microtask'));
Promise.resolve().then(() => console.log('promise 2'));
process.nextTick(() => console.log('nextTick 2'));
console.log('sync 2');
