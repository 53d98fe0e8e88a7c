// Callback API: results arrive after the sync code, errors as first argument.
const fs = require('fs');
fs.readFile('fixtures/data/lines.txt', 'utf8', (err, text) => {
  console.log('readFile', err, text.split('\n').length);
  fs.stat('fixtures/data/lines.txt', (err2, st) => {
    console.log('stat', err2, st.size);
    fs.readFile('fixtures/data/nope', (err3, data) => {
      console.log('missing', err3.code, data);
      fs.readdir('fixtures/data/tree', (err4, names) => console.log('readdir', err4, names.sort().join(',')));
    });
  });
});
console.log('sync code done');
