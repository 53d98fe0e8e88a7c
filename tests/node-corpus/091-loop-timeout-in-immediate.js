// Timers and immediates queued from inside a timer callback.
setTimeout(() => {
  console.log('timeout 1');
  setImmediate(() => console.log('immediate from timeout'));
  setTimeout(() => console.log('timeout from timeout'), 0);
  process.nextTick(() => console.log('tick from timeout'));
}, 0);
