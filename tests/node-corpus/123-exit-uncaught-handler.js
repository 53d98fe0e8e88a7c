// process.on('uncaughtException') keeps the process alive; exit code stays 0.
process.on('uncaughtException', (err, origin) => {
  console.log('caught globally:', err.message, origin);
});
setTimeout(() => {
  console.log('timer after the throw');
}, 1);
throw new Error('thrown at top level');
