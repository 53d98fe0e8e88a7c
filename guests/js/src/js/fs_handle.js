// The callback and promise forms of the fd functions (fs_fd.js): fs.open/read/write/
// close/fstat/..., fs.promises.open and its FileHandle, and fs.createReadStream/
// createWriteStream (loaded with node:stream on first use).
'use strict';

const { Buffer } = require('buffer');

// Set by install().
let sync;
let fds;
let makeError;
let invalidArgType;

// Run `fn` now and report on a later turn, as the fs callbacks do.
function later(cb, fn) {
  if (typeof cb !== 'function') throw invalidArgType('cb', 'of type function', cb);
  let result;
  let error = null;
  try {
    result = fn();
  } catch (e) {
    error = e;
  }
  setImmediate(() => (error ? cb(error) : cb(null, ...result)));
}

function installCallbacks() {
  for (const name of ['openSync', 'closeSync', 'readSync', 'writeSync', 'fstatSync', 'ftruncateSync', 'fsyncSync']) {
    sync[name] = fds[name];
  }
  sync.fdatasyncSync = fds.fsyncSync;
  sync.open = (path, flags, mode, cb) => {
    if (typeof flags === 'function') [flags, cb] = [undefined, flags];
    else if (typeof mode === 'function') [mode, cb] = [undefined, mode];
    later(cb, () => [fds.openSync(path, flags, mode)]);
  };
  sync.close = (fd, cb = () => {}) => later(cb, () => [fds.closeSync(fd)].slice(1));
  sync.fstat = (fd, options, cb) => later(typeof options === 'function' ? options : cb, () => [fds.fstatSync(fd)]);
  sync.ftruncate = (fd, len, cb) => {
    if (typeof len === 'function') [len, cb] = [0, len];
    later(cb, () => [fds.ftruncateSync(fd, len)].slice(1));
  };
  sync.fsync = (fd, cb) => later(cb, () => [fds.fsyncSync(fd)].slice(1));
  sync.fdatasync = sync.fsync;
  sync.read = (fd, ...args) => {
    const cb = args.pop();
    let [buffer, offset, length, position] = args;
    if (buffer === undefined || (!ArrayBuffer.isView(buffer) && typeof buffer === 'object')) {
      const o = buffer || {};
      buffer = o.buffer || Buffer.alloc(16384);
      ({ offset, length, position } = o);
    }
    later(cb, () => [fds.readSync(fd, buffer, offset, length, position), buffer]);
  };
  sync.write = (fd, data, ...args) => {
    const cb = args.pop();
    later(cb, () => [fds.writeSync(fd, data, ...args), data]);
  };
}

class FileHandle {
  constructor(fd) {
    this._fd = fd;
  }
  get fd() { return this._fd; }
  _check(syscall) {
    if (this._fd === -1) throw makeError('EBADF', syscall);
    return this._fd;
  }
  async read(buffer, offset, length, position) {
    if (buffer === undefined || (!ArrayBuffer.isView(buffer) && typeof buffer === 'object')) {
      const o = buffer || {};
      buffer = o.buffer || Buffer.alloc(16384);
      ({ offset, length, position } = o);
    }
    const bytesRead = fds.readSync(this._check('read'), buffer, offset, length, position);
    return { __proto__: null, bytesRead, buffer };
  }
  async write(data, ...args) {
    const bytesWritten = fds.writeSync(this._check('write'), data, ...args);
    return { __proto__: null, bytesWritten, buffer: data };
  }
  async readFile(options) {
    return sync.readFileSync(this._check('read'), options);
  }
  async writeFile(data, options) {
    sync.writeFileSync(this._check('write'), data, options);
  }
  async appendFile(data, options) {
    sync.writeFileSync(this._check('write'), data, options);
  }
  async stat() { return fds.fstatSync(this._check('fstat')); }
  async truncate(len) { fds.ftruncateSync(this._check('ftruncate'), len); }
  async sync() { fds.fsyncSync(this._check('fsync')); }
  async datasync() { fds.fsyncSync(this._check('fsync')); }
  async chmod() {}
  async chown() {}
  async utimes() {}
  async close() {
    if (this._fd === -1) return;
    const fd = this._fd;
    this._fd = -1;
    fds.closeSync(fd);
  }
  createReadStream(options) {
    return require('fs_streams').createReadStream(null, { ...options, fd: this });
  }
  createWriteStream(options) {
    return require('fs_streams').createWriteStream(null, { ...options, fd: this });
  }
  readLines(options) {
    return require('readline').createInterface({ input: this.createReadStream(options), crlfDelay: Infinity });
  }
}
if (Symbol.asyncDispose) FileHandle.prototype[Symbol.asyncDispose] = FileHandle.prototype.close;

function installPromises(promises) {
  promises.open = async (path, flags, mode) => new FileHandle(fds.openSync(path, flags, mode));

  // fs.promises.readFile/writeFile/appendFile take a FileHandle as well as a path.
  for (const name of ['readFile', 'writeFile', 'appendFile']) {
    const byPath = promises[name];
    promises[name] = async (file, ...args) => (file instanceof FileHandle ? file[name](...args) : byPath(file, ...args));
  }
}

function installStreams() {
  sync.createReadStream = (path, options) => require('fs_streams').createReadStream(path, options);
  sync.createWriteStream = (path, options) => require('fs_streams').createWriteStream(path, options);
  // Not enumerable: `import fs from 'fs'` makes a named export of every enumerable key,
  // and reading these would load node:stream into every run that imports fs.
  for (const name of ['ReadStream', 'WriteStream']) {
    Object.defineProperty(sync, name, {
      configurable: true,
      enumerable: false,
      get: () => require('fs_streams')[name],
    });
  }
}

function install(fsExports, promises, fdFunctions, h) {
  sync = fsExports;
  fds = fdFunctions;
  ({ makeError, invalidArgType } = h);
  installCallbacks();
  installPromises(promises);
  installStreams();
}

module.exports = { install };
