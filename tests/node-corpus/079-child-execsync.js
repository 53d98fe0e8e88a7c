// execSync: the output of echo and ls, and a failing command's status.
const { execSync } = require('child_process');
console.log(JSON.stringify(execSync('echo hello from sh').toString()));
console.log(execSync('ls fixtures/data/tree', { encoding: 'utf8' }).trim().split('\n').join(','));
console.log(execSync('echo $((2 + 3))', { encoding: 'utf8' }).trim());
try {
  execSync("sh -c 'exit 3'", { stdio: 'pipe' });
} catch (e) {
  console.log('status', e.status, e.signal, typeof e.stdout);
}
