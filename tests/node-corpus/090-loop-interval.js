// setInterval fires repeatedly until cleared; unref'd timers do not keep the process.
let n = 0;
const iv = setInterval(() => {
  n++;
  console.log('interval', n);
  if (n === 3) clearInterval(iv);
}, 2);
setTimeout(() => console.log('never: unref'), 100000).unref();
process.on('exit', (code) => console.log('exit', code, n));
