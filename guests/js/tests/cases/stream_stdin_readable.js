let data = '';
process.stdin.setEncoding('utf8');
process.stdin.on('readable', () => {
  let chunk;
  while ((chunk = process.stdin.read()) !== null) { data += chunk; console.log('chunk', chunk.length); }
});
process.stdin.on('end', () => console.log('end', JSON.stringify(data)));
process.stdin.on('close', () => console.log('close'));
setTimeout(() => console.log('timer'), 0);
