// for await over readline: sum the numbers on each line of stdin.
import readline from 'node:readline';
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
let total = 0;
for await (const line of rl) {
  const sum = line.split(' ').map(Number).reduce((a, b) => a + b, 0);
  total += sum;
  console.log(`${line} => ${sum}`);
}
console.log('total', total);
