// process.exitCode = 4: the process finishes its work and exits 4.
process.exitCode = 4;
setTimeout(() => console.log('timer still runs'), 1);
process.on('exit', (code) => console.log('exiting with', code));
