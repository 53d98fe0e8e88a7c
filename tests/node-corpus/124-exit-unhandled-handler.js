// process.on('unhandledRejection') gets the reason and the promise; exit 0.
process.on('unhandledRejection', (reason, p) => {
  console.log('unhandled:', reason.message, p instanceof Promise);
});
Promise.reject(new Error('rejected'));
