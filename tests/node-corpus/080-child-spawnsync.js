// spawnSync: status, stdout/stderr separately, input on stdin, a missing program.
const { spawnSync } = require('child_process');
const r = spawnSync('sh', ['-c', 'echo out; echo err >&2; exit 3'], { encoding: 'utf8' });
console.log(r.status, r.signal, JSON.stringify(r.stdout), JSON.stringify(r.stderr));
const cat = spawnSync('cat', [], { input: 'piped in\n', encoding: 'utf8' });
console.log(cat.status, JSON.stringify(cat.stdout));
const ls = spawnSync('ls', ['fixtures/data']);
console.log(ls.status, Buffer.isBuffer(ls.stdout), ls.stdout.toString().split('\n').filter(Boolean).join(' '));
const missing = spawnSync('no-such-program-here');
console.log(missing.error.code, missing.status);
