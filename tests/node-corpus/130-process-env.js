// process.env: what the harness sets, string coercion, delete.
console.log(process.env.CORPUS_MODE, process.env.TZ, process.env.LC_ALL, 'NOT_SET_ANYWHERE' in process.env);
process.env.NEW_VAR = 42;
console.log(typeof process.env.NEW_VAR, process.env.NEW_VAR);
delete process.env.NEW_VAR;
console.log(process.env.NEW_VAR, typeof process.env.PATH);
console.log(require('child_process').execSync('echo $CORPUS_MODE', { encoding: 'utf8' }).trim());
