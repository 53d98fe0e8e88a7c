// createReadStream with start/end (inclusive), and for-await over it.
const fs = require('fs');
(async () => {
  let s = '';
  for await (const c of fs.createReadStream('fixtures/data/lines.txt', { start: 5, end: 12 })) s += c;
  console.log(JSON.stringify(s));
  const rs = fs.createReadStream('fixtures/data/none.txt');
  rs.on('error', (e) => console.log('error', e.code));
})();
