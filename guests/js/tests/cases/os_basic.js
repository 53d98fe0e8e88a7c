import os, { EOL, platform } from 'node:os';
console.log(JSON.stringify(EOL), platform(), os.platform() === process.platform, os.type(), os.endianness(), os.devNull);
console.log(os.constants.signals.SIGTERM, os.constants.signals.SIGKILL, os.constants.errno.ENOENT, os.constants.priority.PRIORITY_HIGH, os.constants.dlopen.RTLD_NOW);
console.log(os.homedir(), os.tmpdir(), os.availableParallelism() >= 1, os.cpus().length >= 1, typeof os.cpus()[0].model);
console.log(os.totalmem() > 0, os.freemem() > 0, os.freemem() <= os.totalmem(), typeof os.uptime(), typeof os.release(), typeof os.hostname());
const u = os.userInfo(); console.log(typeof u.username, typeof u.uid, typeof u.homedir);
console.log(Array.isArray(os.loadavg()), typeof os.networkInterfaces(), os.arch() === process.arch);
