process.stdout.write('a');
process.stdout.write(Buffer.from('b\n'), () => console.log('cb'));
console.log(process.stdout.writable, typeof process.stdout.on, process.stdout.writableHighWaterMark);
let s = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { s += d; });
process.stdin.on('end', () => console.log('stdin', JSON.stringify(s)));
process.stdin.pipe(process.stderr);
