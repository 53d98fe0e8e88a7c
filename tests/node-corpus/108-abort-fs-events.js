// A signal cancels fs.promises.readFile and events.once.
const fsp = require('fs/promises');
const { once, EventEmitter } = require('events');
(async () => {
  const ac = new AbortController();
  ac.abort();
  try {
    await fsp.readFile('fixtures/data/lines.txt', { signal: ac.signal });
  } catch (e) {
    console.log('readFile', e.name, e.code);
  }
  const ac2 = new AbortController();
  const p = once(new EventEmitter(), 'never', { signal: ac2.signal });
  ac2.abort();
  try {
    await p;
  } catch (e) {
    console.log('once', e.name, e.code);
  }
})();
