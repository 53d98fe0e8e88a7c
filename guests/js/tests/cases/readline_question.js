import readline from 'node:readline';
const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
rl.question('What is your name? ', (name) => {
  console.log(`Hello, ${name}!`);
  rl.question('Age? ', (age) => { console.log('age', age); rl.close(); });
});
rl.on('close', () => console.log('bye'));
