// execFileSync: arguments are not split by a shell; cwd and env options.
const { execFileSync } = require('child_process');
console.log(execFileSync('echo', ['a  b', '$HOME'], { encoding: 'utf8' }).trim());
console.log(execFileSync('ls', [], { cwd: 'fixtures/data/tree', encoding: 'utf8' }).trim().split('\n').join(' '));
console.log(execFileSync('sh', ['-c', 'echo $CORPUS_VAR'], { env: { PATH: process.env.PATH, CORPUS_VAR: 'set' }, encoding: 'utf8' }).trim());
