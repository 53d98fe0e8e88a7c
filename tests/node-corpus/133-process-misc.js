// process fields whose shape is stable: version, platform, cwd, hrtime, memory.
const path = require('path');
console.log(/^v\d+\.\d+\.\d+$/.test(process.version), typeof process.versions.node, process.platform);
console.log(path.basename(process.cwd()) === path.basename(__dirname), process.title.length > 0);
const t = process.hrtime();
console.log(Array.isArray(t), t.length, typeof process.hrtime.bigint());
console.log(typeof process.memoryUsage().heapUsed, typeof process.uptime(), typeof process.pid);
console.log(process.exitCode, typeof process.nextTick, typeof process.emitWarning, process.release.name);
process.nextTick((a, b) => console.log('nextTick args', a, b), 'x', 'y');
