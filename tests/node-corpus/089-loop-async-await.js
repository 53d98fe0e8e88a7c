// async/await ordering against then() chains and nextTick.
async function a() {
  console.log('a start');
  await null;
  console.log('a after await 1');
  await null;
  console.log('a after await 2');
}
a();
Promise.resolve().then(() => console.log('then 1')).then(() => console.log('then 2')).then(() => console.log('then 3'));
process.nextTick(() => console.log('tick'));
console.log('sync end');
