// readline over stdin: a 'line' event per line, then 'close'.
const readline = require('readline');
const rl = readline.createInterface({ input: process.stdin });
let n = 0;
rl.on('line', (line) => console.log(++n, JSON.stringify(line)));
rl.on('close', () => console.log('closed after', n, 'lines'));
