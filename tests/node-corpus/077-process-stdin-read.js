// Reading all of stdin with data/end events; and fs.readFileSync(0) is not used here.
let data = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => (data += c));
process.stdin.on('end', () => {
  console.log(JSON.stringify(data));
  console.log(data.trim().split('\n').length, 'lines');
});
