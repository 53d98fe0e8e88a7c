// node:child_process, async forms: spawn's events and pipes, stdin, a pipeline of
// two children, exec/execFile callbacks and util.promisify, ENOENT, kill.
import { spawn, exec, execFile } from 'node:child_process';
import { promisify } from 'node:util';

function done(child) {
  return new Promise((resolve) => child.on('close', (code, signal) => resolve([code, signal])));
}

{
  const c = spawn('sh', ['-c', 'echo hi; exit 3']);
  console.log(typeof c.pid, c.spawnfile, c.spawnargs, c.exitCode, c.signalCode, c.killed);
  const events = [];
  c.on('spawn', () => events.push('spawn'));
  c.stdout.on('data', (d) => events.push(`data ${JSON.stringify(String(d))}`));
  c.on('exit', (code, signal) => events.push(`exit ${code} ${signal}`));
  console.log(await done(c), events, c.exitCode);
}
{
  const c = spawn('cat');
  let text = '';
  c.stdout.setEncoding('utf8');
  c.stdout.on('data', (d) => { text += d; });
  c.stdin.write('hello ');
  c.stdin.end(Buffer.from('world\n'));
  console.log(await done(c), JSON.stringify(text));
}
{
  const a = spawn('sh', ['-c', 'printf "pear\\napple\\nfig\\n"']);
  const b = spawn('sort');
  a.stdout.pipe(b.stdin);
  let sorted = '';
  for await (const chunk of b.stdout) sorted += chunk;
  console.log('pipeline:', JSON.stringify(sorted));
}
{
  const c = spawn('sh', ['-c', 'echo err-line >&2']);
  const chunks = [];
  c.stderr.on('data', (d) => chunks.push(d));
  await done(c);
  console.log(Buffer.concat(chunks).toString(), c.stdout.readableEnded);
}
{
  const c = spawn('no-such-command-here', ['x']);
  console.log(c.pid);
  const err = await new Promise((resolve) => c.on('error', resolve));
  console.log(err.message, err.code, err.errno, err.syscall, err.path, err.spawnargs);
  console.log(await done(c));
}
{
  const c = spawn('sh', ['-c', 'cat']);
  console.log(c.kill(), c.killed);
  c.on('exit', (code, signal) => console.log('killed exit', code, signal, c.signalCode));
  console.log(await done(c), c.kill());
}
await new Promise((resolve) => {
  exec('echo out; echo err >&2', (error, stdout, stderr) => {
    console.log(error, JSON.stringify(stdout), JSON.stringify(stderr));
    resolve();
  });
});
await new Promise((resolve) => {
  exec('echo partial; exit 4', (error, stdout, stderr) => {
    console.log(error.message, error.code, error.killed, error.signal, error.cmd, JSON.stringify(stdout));
    resolve();
  });
});
await new Promise((resolve) => {
  execFile('sh', ['-c', 'echo $0-$1', 'a', 'b'], { encoding: 'buffer' }, (error, stdout) => {
    console.log(error, stdout);
    resolve();
  });
});
const execP = promisify(exec);
console.log(await execP('echo promised'));
try {
  await execP('echo before failing; exit 9');
} catch (e) {
  console.log(e.message, e.code, JSON.stringify(e.stdout), JSON.stringify(e.stderr));
}
const execFileP = promisify(execFile);
console.log(await execFileP('sh', ['-c', 'echo file promised']));
try {
  await execFileP('no-such-command-here');
} catch (e) {
  console.log(e.code, e.cmd, e.syscall);
}
{
  const c = spawn('sh', ['-c', 'echo inherited'], { stdio: 'inherit' });
  const closed = await done(c);
  console.log(c.stdout, c.stdin, closed);
}
await new Promise((resolve) => {
  exec('printf %0500d 0', { maxBuffer: 100 }, (error, stdout) => {
    console.log(error.message, error.code, error.cmd, stdout.length);
    resolve();
  });
});
