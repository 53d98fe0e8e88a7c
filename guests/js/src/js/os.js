// node:os with stable values for the sandbox: it describes a small Linux machine
// (platform 'linux', as process.platform: see README.md), one CPU, no network
// interfaces, the home and temp directories from HOME / TMPDIR.
'use strict';

function nullProto(obj) {
  return Object.freeze(Object.assign(Object.create(null), obj));
}

const signals = nullProto({
  SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGILL: 4, SIGTRAP: 5, SIGABRT: 6, SIGIOT: 6, SIGBUS: 7,
  SIGFPE: 8, SIGKILL: 9, SIGUSR1: 10, SIGSEGV: 11, SIGUSR2: 12, SIGPIPE: 13, SIGALRM: 14,
  SIGTERM: 15, SIGCHLD: 17, SIGSTKFLT: 16, SIGCONT: 18, SIGSTOP: 19, SIGTSTP: 20, SIGTTIN: 21,
  SIGTTOU: 22, SIGURG: 23, SIGXCPU: 24, SIGXFSZ: 25, SIGVTALRM: 26, SIGPROF: 27, SIGWINCH: 28,
  SIGIO: 29, SIGPOLL: 29, SIGPWR: 30, SIGSYS: 31,
});

const errno = nullProto({
  E2BIG: 7, EACCES: 13, EADDRINUSE: 98, EADDRNOTAVAIL: 99, EAFNOSUPPORT: 97, EAGAIN: 11,
  EALREADY: 114, EBADF: 9, EBADMSG: 74, EBUSY: 16, ECANCELED: 125, ECHILD: 10, ECONNABORTED: 103,
  ECONNREFUSED: 111, ECONNRESET: 104, EDEADLK: 35, EDESTADDRREQ: 89, EDOM: 33, EDQUOT: 122,
  EEXIST: 17, EFAULT: 14, EFBIG: 27, EHOSTUNREACH: 113, EIDRM: 43, EILSEQ: 84, EINPROGRESS: 115,
  EINTR: 4, EINVAL: 22, EIO: 5, EISCONN: 106, EISDIR: 21, ELOOP: 40, EMFILE: 24, EMLINK: 31,
  EMSGSIZE: 90, EMULTIHOP: 72, ENAMETOOLONG: 36, ENETDOWN: 100, ENETRESET: 102, ENETUNREACH: 101,
  ENFILE: 23, ENOBUFS: 105, ENODATA: 61, ENODEV: 19, ENOENT: 2, ENOEXEC: 8, ENOLCK: 37,
  ENOLINK: 67, ENOMEM: 12, ENOMSG: 42, ENOPROTOOPT: 92, ENOSPC: 28, ENOSR: 63, ENOSTR: 60,
  ENOSYS: 38, ENOTCONN: 107, ENOTDIR: 20, ENOTEMPTY: 39, ENOTSOCK: 88, ENOTSUP: 95, ENOTTY: 25,
  ENXIO: 6, EOPNOTSUPP: 95, EOVERFLOW: 75, EPERM: 1, EPIPE: 32, EPROTO: 71, EPROTONOSUPPORT: 93,
  EPROTOTYPE: 91, ERANGE: 34, EROFS: 30, ESPIPE: 29, ESRCH: 3, ESTALE: 116, ETIME: 62,
  ETIMEDOUT: 110, ETXTBSY: 26, EWOULDBLOCK: 11, EXDEV: 18,
});

const priority = nullProto({
  PRIORITY_LOW: 19, PRIORITY_BELOW_NORMAL: 10, PRIORITY_NORMAL: 0, PRIORITY_ABOVE_NORMAL: -7,
  PRIORITY_HIGH: -14, PRIORITY_HIGHEST: -20,
});

const dlopen = nullProto({ RTLD_LAZY: 1, RTLD_NOW: 2, RTLD_GLOBAL: 256, RTLD_LOCAL: 0, RTLD_DEEPBIND: 8 });

const constants = Object.freeze(Object.assign(Object.create(null), { UV_UDP_REUSEADDR: 4, dlopen, errno, signals, priority }));

// A fixed memory figure: the guest cannot see the host's, and runs are replayable.
const TOTAL_MEM = 4 * 1024 * 1024 * 1024;

function homedir() {
  const home = process.env.HOME;
  return typeof home === 'string' && home !== '' ? home : '/';
}

function tmpdir() {
  let path = process.env.TMPDIR || process.env.TMP || process.env.TEMP || '/tmp';
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path;
}

function userInfo(options) {
  const asBuffer = options && options.encoding === 'buffer';
  // The passwd entry of the process's user: the same in every guest.
  const info = {
    uid: process.getuid(),
    gid: process.getgid(),
    username: native.identity.user,
    homedir: homedir(),
    shell: '/bin/bash',
  };
  if (asBuffer) {
    info.username = Buffer.from(info.username);
    info.homedir = Buffer.from(info.homedir);
  }
  return info;
}

function cpus() {
  return [{ model: 'WebAssembly', speed: 0, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } }];
}

module.exports = {
  arch: () => process.arch,
  availableParallelism: () => 1,
  cpus,
  endianness: () => 'LE',
  freemem: () => TOTAL_MEM,
  getPriority: () => 0,
  homedir,
  hostname: () => 'computer',
  loadavg: () => [0, 0, 0],
  networkInterfaces: () => ({}),
  platform: () => process.platform,
  release: () => '6.0.0',
  setPriority() { throw require('web').notSupported('os.setPriority'); },
  tmpdir,
  totalmem: () => TOTAL_MEM,
  type: () => 'Linux',
  userInfo,
  uptime: () => Math.floor(process.uptime()),
  version: () => '#1 SMP',
  machine: () => process.arch,
  constants,
  EOL: '\n',
  devNull: '/dev/null',
};
