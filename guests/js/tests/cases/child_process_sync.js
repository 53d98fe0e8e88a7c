// node:child_process, synchronous forms: execSync through sh, input, encodings,
// failures with status/stdout/stderr, spawnSync results, ENOENT, stdio.
import cp, { execSync, execFileSync, spawnSync } from 'node:child_process';
import childProcess from 'child_process';

console.log(cp === childProcess, typeof cp.fork, typeof cp.spawn);
console.log(JSON.stringify(String(execSync('echo hi; echo there'))));
console.log(execSync('cat', { input: 'from input\n', encoding: 'utf8' }));
console.log(execSync('tr a-z A-Z', { input: Buffer.from('shout') }).toString());
console.log(execSync('echo $GREETING', { env: { GREETING: 'hello env' }, encoding: 'utf8' }));
console.log(execFileSync('sh', ['-c', 'echo "$0 $1"', 'zero', 'one'], { encoding: 'utf8' }));
console.log(execFileSync('/bin/sh', ['-c', 'echo via /bin/sh'], { encoding: 'utf8' }));

try {
  execSync('echo partial; echo oops >&2; exit 3', { stdio: 'pipe' });
} catch (e) {
  console.log(Object.keys(e));
  console.log(JSON.stringify(e.message), e.status, e.signal);
  console.log(e.stdout, e.stderr, e.output);
}
try {
  execSync('exit 2', { stdio: 'pipe' });
} catch (e) {
  console.log(JSON.stringify(e.message), e.status);
}
// The default: the child's stderr goes to ours, and is in the error too.
try {
  execSync('echo to-parent-stderr >&2; exit 1');
} catch (e) {
  console.log(JSON.stringify(e.message), JSON.stringify(String(e.stderr)));
}
try {
  execFileSync('sh', ['-c', 'exit 4']);
} catch (e) {
  console.log(JSON.stringify(e.message), e.status);
}

const r = spawnSync('sh', ['-c', 'echo out; echo err >&2; exit 7'], { encoding: 'utf8' });
console.log(Object.keys(r), r.status, r.signal, JSON.stringify(r.stdout), JSON.stringify(r.stderr), r.output);
const raw = spawnSync('sh', ['-c', 'printf abc']);
console.log(raw.stdout, Buffer.isBuffer(raw.stderr), raw.stderr.length);

const missing = spawnSync('no-such-command-here', ['a', 'b']);
console.log(Object.keys(missing).join(), missing.status, missing.pid, missing.stdout);
const m = missing.error;
console.log(m.message, m.code, m.errno, m.syscall, m.path, m.spawnargs);
try {
  execFileSync('no-such-command-here', ['x']);
} catch (e) {
  console.log(e.message, e.code, e.status, e.error === e);
}

console.log(spawnSync('sh', ['-c', 'echo ignored'], { stdio: 'ignore' }).stdout);
execSync('echo inherited out; echo inherited err >&2', { stdio: 'inherit' });
console.log(execSync('ls', { cwd: 'sub', encoding: 'utf8' }));
try {
  execSync('printf %0500d 0', { maxBuffer: 100 });
} catch (e) {
  console.log(e.message, e.code, e.stdout.length);
}
