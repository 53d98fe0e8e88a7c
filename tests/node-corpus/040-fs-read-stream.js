// createReadStream: chunks with a small highWaterMark, encoding, and events.
const fs = require('fs');
const chunks = [];
const rs = fs.createReadStream('fixtures/data/lines.txt', { highWaterMark: 8, encoding: 'utf8' });
rs.on('open', () => console.log('open'));
rs.on('data', (c) => chunks.push(c));
rs.on('end', () => {
  console.log('chunks', chunks.length, JSON.stringify(chunks[0]));
  console.log(JSON.stringify(chunks.join('')));
});
rs.on('close', () => console.log('close', rs.bytesRead));
