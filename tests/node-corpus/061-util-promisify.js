// util.promisify and callbackify; the custom promisify symbol.
const util = require('util');
const fs = require('fs');
function legacy(x, cb) { setImmediate(() => (x < 0 ? cb(new Error('negative')) : cb(null, x * 2))); }
const p = util.promisify(legacy);
(async () => {
  console.log(await p(21));
  try { await p(-1); } catch (e) { console.log('rejected', e.message); }
  const stat = util.promisify(fs.stat);
  console.log((await stat('fixtures/data/lines.txt')).size);
  function custom() {}
  custom[util.promisify.custom] = () => Promise.resolve('custom!');
  console.log(await util.promisify(custom)(), util.promisify.custom === Symbol.for('nodejs.util.promisify.custom'));
  const cbf = util.callbackify(async (v) => v + 1);
  cbf(1, (err, v) => console.log('callbackify', err, v));
  const sleep = util.promisify(setTimeout);
  console.log(await sleep(1, 'slept'));
})();
