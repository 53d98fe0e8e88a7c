// nextTick queued inside nextTick runs before any promise; promise inside promise too.
process.nextTick(() => {
  console.log('tick 1');
  process.nextTick(() => console.log('tick 1.1'));
  Promise.resolve().then(() => console.log('promise from tick 1'));
});
Promise.resolve().then(() => {
  console.log('promise 1');
  process.nextTick(() => console.log('tick from promise 1'));
  Promise.resolve().then(() => console.log('promise 1.1'));
});
process.nextTick(() => console.log('tick 2'));
Promise.resolve().then(() => console.log('promise 2'));
