// fs.promises and node:fs/promises: the same functions, awaited.
const fsp = require('fs/promises');
(async () => {
  console.log(fsp === require('fs').promises);
  const text = await fsp.readFile('fixtures/data/table.csv', 'utf8');
  console.log(text.trim().split('\n').map((l) => l.split(',')[0]).join(' '));
  await fsp.rm('scratch-036', { recursive: true, force: true });
  await fsp.mkdir('scratch-036');
  await fsp.writeFile('scratch-036/x.json', JSON.stringify({ a: 1 }));
  console.log(JSON.parse(await fsp.readFile('scratch-036/x.json', 'utf8')).a);
  const st = await fsp.stat('scratch-036/x.json');
  console.log(st.size, st.isFile());
  try {
    await fsp.access('scratch-036/none');
  } catch (e) {
    console.log(e.code);
  }
  await fsp.rm('scratch-036', { recursive: true });
})();
