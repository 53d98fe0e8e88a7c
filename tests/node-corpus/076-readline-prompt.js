// rl.prompt with piped stdin: the prompt text is written to stdout each time.
const readline = require('readline');
const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: false });
rl.setPrompt('> ');
rl.prompt();
rl.on('line', (line) => {
  console.log(`got ${line}`);
  rl.prompt();
});
rl.on('close', () => console.log('\nbye'));
