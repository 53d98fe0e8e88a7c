// process.stdout.write with callbacks and Buffers; isTTY is false when piped.
process.stdout.write('no newline, ');
process.stdout.write(Buffer.from('a buffer\n'));
process.stdout.write('with callback\n', () => console.log('write callback ran'));
console.log('isTTY:', process.stdout.isTTY, process.stdin.isTTY);
console.log(typeof process.stdout.columns);
