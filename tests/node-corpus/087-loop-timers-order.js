// Timers fire by delay, equal delays in creation order; microtasks between callbacks.
setTimeout(() => console.log('t20'), 20);
setTimeout(() => {
  console.log('t1 a');
  Promise.resolve().then(() => console.log('promise after t1 a'));
  process.nextTick(() => console.log('tick after t1 a'));
}, 1);
setTimeout(() => console.log('t1 b'), 1);
setTimeout(() => console.log('t10'), 10);
const t = setTimeout(() => console.log('cancelled'), 5);
clearTimeout(t);
