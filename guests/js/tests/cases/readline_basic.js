import readline from 'node:readline';
import * as rlp from 'node:readline/promises';
import { Readable } from 'node:stream';
const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
let n = 0;
rl.on('line', (line) => console.log(++n, JSON.stringify(line)));
rl.on('close', async () => {
  console.log('close', n);
  const rl2 = rlp.createInterface({ input: Readable.from(['bob\n']), output: process.stdout });
  const answer = await rl2.question('name? ');
  console.log('answer', answer);
  rl2.close();
  console.log(await rl2.question('again?').catch((e) => e.code));
  const rl3 = readline.createInterface({ input: Readable.from(['x\ny\n', 'z']) });
  const lines = [];
  for await (const l of rl3) lines.push(l);
  console.log(lines);
  console.log(readline.clearLine(process.stdout, 0), readline.cursorTo(process.stdout, 3), readline.moveCursor(process.stdout, 0, 0));
});
