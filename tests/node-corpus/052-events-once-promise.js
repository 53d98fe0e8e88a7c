// events.once resolves with the arguments; rejects on 'error'.
const { EventEmitter, once } = require('events');
(async () => {
  const e = new EventEmitter();
  setTimeout(() => e.emit('ready', 'a', 'b'), 1);
  console.log(await once(e, 'ready'));
  setTimeout(() => e.emit('error', new Error('failed')), 1);
  try {
    await once(e, 'never');
  } catch (err) {
    console.log('rejected', err.message);
  }
})();
