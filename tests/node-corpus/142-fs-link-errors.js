// link's errors in its three forms: code, errno, syscall, dest and the message with both paths.
const fs = require('fs');
const show = (e) => console.log(e.code, e.errno, e.syscall, e.path, e.dest, e.message);
const cases = [
  ['fixtures/data/missing.txt', 'fixtures/data/new.txt'],
  ['fixtures/data/lines.txt', 'fixtures/data/table.csv'],
  ['fixtures/data/lines.txt', 'fixtures/data/no-dir/new.txt'],
  ['fixtures/data/lines.txt', 'fixtures/data/empty.txt/new.txt'],
  ['fixtures/data/missing.txt', 'fixtures/data/table.csv'],
];
for (const [a, b] of cases) {
  try {
    fs.linkSync(a, b);
    console.log('linked?', a, b);
  } catch (e) {
    show(e);
  }
}
(async () => {
  for (const [a, b] of cases) {
    await fs.promises.link(a, b).then(() => console.log('linked?'), show);
    await new Promise((done) => fs.link(a, b, (e) => { show(e); done(); }));
  }
  console.log(typeof fs.linkSync, typeof fs.link, typeof fs.promises.link);
})();
