// A rejection handled later in the same tick is not unhandled; beforeExit fires once.
const p = Promise.reject(new Error('late'));
setTimeout(() => {}, 1);
p.catch((e) => console.log('caught', e.message));
let fired = 0;
process.on('beforeExit', () => {
  if (fired++ === 0) {
    console.log('beforeExit');
    setTimeout(() => console.log('work scheduled in beforeExit'), 1);
  }
});
process.on('exit', () => console.log('exit, beforeExit fired', fired));
