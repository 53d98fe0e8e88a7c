// An unhandled rejection ends the process with exit code 1 after the microtasks.
console.log('start');
Promise.reject(new Error('nobody catches this'));
process.nextTick(() => console.log('tick still runs'));
setTimeout(() => console.log('never: timer'), 10);
