// setImmediate queued inside an immediate runs on the next turn, after other immediates.
setImmediate(() => {
  console.log('immediate 1');
  setImmediate(() => console.log('immediate 3 (queued by 1)'));
  process.nextTick(() => console.log('tick in immediate 1'));
});
setImmediate(() => console.log('immediate 2'));
const i = setImmediate(() => console.log('cleared'));
clearImmediate(i);
