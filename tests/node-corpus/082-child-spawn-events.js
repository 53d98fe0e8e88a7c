// spawn: stdout data, then 'exit' and 'close' with the code.
const { spawn } = require('child_process');
const child = spawn('sh', ['-c', 'echo spawned; exit 2']);
let out = '';
child.stdout.on('data', (d) => (out += d));
child.on('close', (code, signal) => console.log('close', code, signal, JSON.stringify(out)));
