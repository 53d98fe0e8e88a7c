// process.exit(3) stops at once: no timers, but 'exit' listeners run with the code.
process.on('exit', (code) => console.log('exit listener', code, process.exitCode));
setTimeout(() => console.log('never: timer'), 0);
console.log('calling exit');
process.exit(3);
console.log('never: after exit');
