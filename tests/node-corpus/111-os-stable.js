// os: only values stable across machines (EOL, types, platform family).
const os = require('os');
console.log(JSON.stringify(os.EOL), os.platform(), os.type(), typeof os.release());
console.log(typeof os.hostname(), typeof os.homedir(), typeof os.tmpdir(), Array.isArray(os.cpus()));
console.log(typeof os.totalmem(), typeof os.freemem(), typeof os.uptime(), os.endianness());
console.log(typeof os.arch(), typeof os.userInfo().username, typeof os.networkInterfaces(), os.constants.signals.SIGTERM);
console.log(os.devNull, typeof os.availableParallelism === 'function' ? typeof os.availableParallelism() : 'n/a');
