// node:fs over the workspace (`native.fs`, the WIT fs import): the *Sync functions are
// the real implementation; `fs.promises` and the callback forms wrap them. Relative
// paths resolve against process.cwd(). Errors are Node's: `code`, negative `errno`,
// `syscall`, `path` (as the caller gave it) and `ENOENT: no such file or directory,
// open 'x'`.
'use strict';

const { Buffer } = require('buffer');
const pathModule = require('path');

const fsn = native.fs;

const ERRORS = {
  ENOENT: [-2, 'no such file or directory'],
  EEXIST: [-17, 'file already exists'],
  ENOTDIR: [-20, 'not a directory'],
  EISDIR: [-21, 'illegal operation on a directory'],
  ENOTEMPTY: [-39, 'directory not empty'],
  EINVAL: [-22, 'invalid argument'],
  ELOOP: [-40, 'too many symbolic links encountered'],
  EROFS: [-30, 'read-only file system'],
  EPERM: [-1, 'operation not permitted'],
  EFBIG: [-27, 'file too large'],
  ENAMETOOLONG: [-36, 'name too long'],
  EACCES: [-13, 'permission denied'],
  EIO: [-5, 'i/o error'],
  ENOSPC: [-28, 'no space left on device'],
  EBUSY: [-16, 'resource busy or locked'],
  EILSEQ: [-84, 'illegal byte sequence'],
  EBADF: [-9, 'bad file descriptor'],
};

function makeError(code, syscall, path, dest) {
  const [errno, description] = ERRORS[code] || [-5, code.toLowerCase()];
  let message = `${code}: ${description}, ${syscall}`;
  if (path !== undefined) message += ` '${path}'`;
  if (dest !== undefined) message += ` -> '${dest}'`;
  const err = new Error(message);
  err.errno = errno;
  err.code = code;
  err.syscall = syscall;
  if (path !== undefined) err.path = path;
  if (dest !== undefined) err.dest = dest;
  // The stack should start at the fs function the program called, not in these helpers.
  if (typeof err.stack === 'string') {
    err.stack = err.stack.split('\n').filter((line) => !/^ +at (makeError|nodeError|call2?) \(node:fs:/.test(line)).join('\n');
  }
  return err;
}

// Turn what native.fs throws into a Node error; anything else passes through.
function nodeError(raw, syscall, path, dest) {
  if (raw === null || typeof raw !== 'object' || raw.fsError !== true) return raw;
  return makeError(raw.code, syscall, path, dest);
}

function invalidArgType(name, expected, value) {
  const shown = typeof value === 'string' ? `'${value.length > 28 ? `${value.slice(0, 25)}...` : value}'` : String(value);
  const got = value === null ? 'null' : value === undefined ? 'undefined' : typeof value === 'object' ? `an instance of ${value.constructor ? value.constructor.name : 'Object'}` : `type ${typeof value} (${shown})`;
  const err = new TypeError(`The "${name}" argument must be ${expected}. Received ${got}`);
  err.code = 'ERR_INVALID_ARG_TYPE';
  return err;
}

// The caller's path as a string (Buffer and file: URL accepted), and its absolute form.
function pathArg(p, name = 'path') {
  if (typeof p === 'string') return p;
  if (p instanceof Uint8Array) return Buffer.from(p).toString();
  if (p !== null && typeof p === 'object' && typeof p.href === 'string' && p.protocol === 'file:') {
    return decodeURIComponent(p.pathname);
  }
  throw invalidArgType(name, 'of type string or an instance of Buffer or URL', p);
}

function abs(p) {
  return (p = wellFormed(p)).startsWith('/') ? p : pathModule.resolve(p);
}

// Call native.fs[op] on absolute paths, reporting errors with the caller's paths.
function call(syscall, op, path, ...rest) {
  try {
    return fsn[op](abs(path), ...rest);
  } catch (e) {
    throw nodeError(e, syscall, path);
  }
}

function call2(syscall, op, from, to, ...rest) {
  try {
    return fsn[op](abs(from), abs(to), ...rest);
  } catch (e) {
    throw nodeError(e, syscall, from, to);
  }
}

function optionsOf(options, defaults) {
  if (options === undefined || options === null || typeof options === 'function') return { ...defaults };
  if (typeof options === 'string') return { ...defaults, encoding: options };
  if (typeof options === 'object') return { ...defaults, ...options };
  throw invalidArgType('options', 'one of type string or an instance of Object', options);
}

function bytesOf(data, encoding) {
  if (typeof data === 'string') {
    return encoding && encoding !== 'utf8' && encoding !== 'utf-8' ? Buffer.from(data, encoding) : data;
  }
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw invalidArgType('data', 'of type string or an instance of Buffer, TypedArray, or DataView', data);
}

function modeOf(mode) {
  if (mode === undefined || mode === null) return undefined;
  if (typeof mode === 'string') return parseInt(mode, 8);
  return mode >>> 0;
}

function isStdin(p) {
  return p === 0 || p === '/dev/stdin';
}

// ---- stats and dirents ------------------------------------------------------------

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const TYPE_BITS = { file: S_IFREG, directory: S_IFDIR, symlink: S_IFLNK };

class Stats {
  constructor(st) {
    const ms = st.mtimeNs / 1e6;
    this.dev = 1;
    this.mode = (st.mode & 0o7777) | TYPE_BITS[st.kind];
    this.nlink = 1;
    this.uid = 0;
    this.gid = 0;
    this.rdev = 0;
    this.blksize = 4096;
    this.ino = st.ino;
    this.size = st.size;
    this.blocks = Math.ceil(st.size / 512);
    this.atimeMs = ms;
    this.mtimeMs = ms;
    this.ctimeMs = ms;
    this.birthtimeMs = ms;
    this.atime = new Date(ms);
    this.mtime = new Date(ms);
    this.ctime = new Date(ms);
    this.birthtime = new Date(ms);
  }
  isFile() { return (this.mode & S_IFMT) === S_IFREG; }
  isDirectory() { return (this.mode & S_IFMT) === S_IFDIR; }
  isSymbolicLink() { return (this.mode & S_IFMT) === S_IFLNK; }
  isBlockDevice() { return false; }
  isCharacterDevice() { return false; }
  isFIFO() { return false; }
  isSocket() { return false; }
}

class Dirent {
  constructor(name, kind, parentPath) {
    this.name = name;
    this.parentPath = parentPath;
    this.path = parentPath;
    Object.defineProperty(this, '_kind', { value: kind });
  }
  isFile() { return this._kind === 'file'; }
  isDirectory() { return this._kind === 'directory'; }
  isSymbolicLink() { return this._kind === 'symlink'; }
  isBlockDevice() { return false; }
  isCharacterDevice() { return false; }
  isFIFO() { return false; }
  isSocket() { return false; }
}

const fds = require('fs_fd').install({ makeError, nodeError, invalidArgType, pathArg, abs, modeOf, Stats });

// ---- the synchronous API ---------------------------------------------------------

function readFileSync(path, options) {
  const opts = optionsOf(options, { encoding: null, flag: 'r' });
  let ab;
  if (isStdin(path)) ab = fsn.readStdin();
  else if (typeof path === 'number') ab = fds.readFd(path);
  else {
    const p = pathArg(path);
    try {
      ab = fsn.read(abs(p));
    } catch (e) {
      // Node opens a directory fine and fails at the read, with no path.
      if (e && e.code === 'EISDIR') throw makeError('EISDIR', 'read');
      throw nodeError(e, 'open', p);
    }
  }
  if (opts.encoding) return native.decode(new Uint8Array(ab), String(opts.encoding).toLowerCase());
  return new Buffer(ab);
}

function writeFileSync(path, data, options) {
  const opts = optionsOf(options, { encoding: 'utf8', flag: 'w', mode: undefined });
  if (typeof path === 'number') return void fds.writeSync(path, bytesOf(data, opts.encoding));
  const p = pathArg(path);
  const bytes = bytesOf(data, opts.encoding);
  const flag = String(opts.flag);
  if (flag.startsWith('a')) {
    if (flag.includes('x') && existsSync(p)) throw makeError('EEXIST', 'open', p);
    call('open', 'append', p, bytes);
    return;
  }
  call('open', 'write', p, bytes, modeOf(opts.mode), flag.includes('x'));
}

function appendFileSync(path, data, options) {
  const opts = optionsOf(options, { encoding: 'utf8', flag: 'a' });
  if (typeof path === 'number') return void fds.writeSync(path, bytesOf(data, opts.encoding));
  writeFileSync(path, data, { ...opts, flag: opts.flag.startsWith('a') ? opts.flag : 'a' });
}

function existsSync(path) {
  try {
    fsn.stat(abs(pathArg(path)));
    return true;
  } catch {
    return false;
  }
}

function statSync(path, options) {
  const p = pathArg(path);
  try {
    return new Stats(fsn.stat(abs(p)));
  } catch (e) {
    if (options && options.throwIfNoEntry === false && e && e.code === 'ENOENT') return undefined;
    throw nodeError(e, 'stat', p);
  }
}

function lstatSync(path, options) {
  const p = pathArg(path);
  try {
    return new Stats(fsn.lstat(abs(p)));
  } catch (e) {
    if (options && options.throwIfNoEntry === false && e && e.code === 'ENOENT') return undefined;
    throw nodeError(e, 'lstat', p);
  }
}

function accessSync(path, mode) {
  void mode;
  call('access', 'stat', pathArg(path));
}

function mkdirSync(path, options) {
  const opts = typeof options === 'number' || typeof options === 'string' ? { mode: options } : optionsOf(options, {});
  const p = pathArg(path);
  const mode = modeOf(opts.mode);
  if (!opts.recursive) {
    call('mkdir', 'mkdir', p, false, mode);
    return undefined;
  }
  // Node returns the first directory it created: find the topmost missing ancestor.
  let first;
  let probe = abs(p);
  while (probe !== '/') {
    try {
      fsn.lstat(probe);
      break;
    } catch {
      first = probe;
      probe = pathModule.dirname(probe);
    }
  }
  call('mkdir', 'mkdir', p, true, mode);
  return first;
}

function readdirSync(path, options) {
  const opts = optionsOf(options, { encoding: 'utf8', withFileTypes: false, recursive: false });
  const p = pathArg(path);
  const out = [];
  const walk = (dir, prefix) => {
    const flat = call('scandir', 'readdir', dir);
    const parent = abs(dir);
    for (let i = 0; i < flat.length; i += 2) {
      const name = flat[i];
      const kind = flat[i + 1];
      const rel = prefix === '' ? name : `${prefix}/${name}`;
      if (opts.withFileTypes) out.push(new Dirent(name, kind, parent === abs(p) ? p : parent));
      else out.push(opts.encoding === 'buffer' ? Buffer.from(rel) : rel);
      if (opts.recursive && kind === 'directory') walk(`${parent === '/' ? '' : parent}/${name}`, rel);
    }
  };
  walk(p, '');
  return out;
}

function rmSync(path, options) {
  const opts = optionsOf(options, { recursive: false, force: false });
  const p = pathArg(path);
  if (!opts.recursive) {
    let st;
    try {
      st = fsn.lstat(abs(p));
    } catch (e) {
      if (opts.force && e && e.code === 'ENOENT') return;
      throw nodeError(e, 'rm', p);
    }
    if (st.kind === 'directory') {
      const err = new Error(`Path is a directory: rm returned EISDIR (is a directory) ${p}`);
      err.code = 'ERR_FS_EISDIR';
      err.errno = 21;
      err.syscall = 'rm';
      err.path = p;
      throw err;
    }
  }
  call('rm', 'rm', p, Boolean(opts.recursive), Boolean(opts.force));
}

function rmdirSync(path, options) {
  const opts = optionsOf(options, { recursive: false });
  const p = pathArg(path);
  const st = call('rmdir', 'lstat', p);
  if (st.kind !== 'directory') throw makeError('ENOTDIR', 'rmdir', p);
  call('rmdir', 'rm', p, Boolean(opts.recursive), false);
}

function unlinkSync(path) {
  const p = pathArg(path);
  const st = call('unlink', 'lstat', p);
  if (st.kind === 'directory') throw makeError('EISDIR', 'unlink', p);
  call('unlink', 'rm', p, false, false);
}

function renameSync(from, to) {
  call2('rename', 'rename', pathArg(from, 'oldPath'), pathArg(to, 'newPath'));
}

function copyFileSync(src, dest, mode) {
  const s = pathArg(src, 'src');
  const d = pathArg(dest, 'dest');
  if (mode & constants.COPYFILE_EXCL && existsSync(d)) throw makeError('EEXIST', 'copyfile', s, d);
  const st = call('copyfile', 'stat', s);
  if (st.kind === 'directory') throw makeError('EISDIR', 'copyfile', s, d);
  call2('copyfile', 'copy', s, d, false);
}

function cpSync(src, dest, options) {
  const opts = optionsOf(options, { recursive: false, force: true, errorOnExist: false });
  const s = pathArg(src, 'src');
  const d = pathArg(dest, 'dest');
  const from = call('cp', 'stat', s);
  if (from.kind === 'directory' && !opts.recursive) {
    const err = new Error(`Recursive option is required to copy a directory: ${s}`);
    err.code = 'ERR_FS_EISDIR';
    throw err;
  }
  let to;
  try {
    to = fsn.lstat(abs(d));
  } catch {
    to = undefined;
  }
  if (to === undefined) {
    // The host copies a whole tree at once (copy-on-write).
    call2('cp', 'copy', s, d, from.kind === 'directory');
    return;
  }
  if (from.kind === 'directory') {
    if (to.kind !== 'directory') throw makeError('ENOTDIR', 'cp', d);
    // Merge into the existing directory, entry by entry.
    const flat = call('scandir', 'readdir', s);
    for (let i = 0; i < flat.length; i += 2) {
      cpSync(pathModule.join(abs(s), flat[i]), pathModule.join(abs(d), flat[i]), opts);
    }
    return;
  }
  if (to.kind === 'directory') throw makeError('EISDIR', 'cp', d);
  if (!opts.force) {
    if (opts.errorOnExist) throw makeError('EEXIST', 'cp', d);
    return;
  }
  call2('cp', 'copy', s, d, false);
}

function symlinkSync(target, path) {
  const t = pathArg(target, 'target');
  const p = pathArg(path);
  try {
    fsn.symlink(t, abs(p));
  } catch (e) {
    throw nodeError(e, 'symlink', t, p);
  }
}

// A hard link (wit/fs.wit `link`), after the path checks in the order the kernel
// makes them, so the first failure is the one node reports (the source must exist,
// the destination must not, its directory must).
function linkSync(existingPath, newPath) {
  const from = pathArg(existingPath, 'existingPath');
  const to = pathArg(newPath, 'newPath');
  try {
    fsn.lstat(abs(from));
  } catch (e) {
    throw nodeError(e, 'link', from, to);
  }
  let exists = true;
  try {
    fsn.lstat(abs(to));
  } catch (e) {
    if (!e || e.code !== 'ENOENT') throw nodeError(e, 'link', from, to);
    exists = false;
  }
  if (exists) throw makeError('EEXIST', 'link', from, to);
  let parent;
  try {
    parent = fsn.stat(pathModule.dirname(abs(to)));
  } catch (e) {
    throw nodeError(e, 'link', from, to);
  }
  if (parent.kind !== 'directory') throw makeError('ENOTDIR', 'link', from, to);
  try {
    fsn.link(abs(from), abs(to));
  } catch (e) {
    throw nodeError(e, 'link', from, to);
  }
}

function readlinkSync(path, options) {
  const opts = optionsOf(options, { encoding: 'utf8' });
  const target = call('readlink', 'readlink', pathArg(path));
  return opts.encoding === 'buffer' ? Buffer.from(target) : target;
}

function realpathSync(path, options) {
  const opts = optionsOf(options, { encoding: 'utf8' });
  const real = call('realpath', 'realpath', pathArg(path));
  return opts.encoding === 'buffer' ? Buffer.from(real) : real;
}
realpathSync.native = realpathSync;

function chmodSync(path, mode) {
  call('chmod', 'chmod', pathArg(path), modeOf(mode));
}

function truncateSync(path, len = 0) {
  call('open', 'truncate', pathArg(path), Math.max(0, Number(len) || 0));
}

function timeMs(t) {
  if (t instanceof Date) return t.getTime();
  if (typeof t === 'string') return Date.parse(t);
  return Number(t) * 1000;
}

function utimesSync(path, atime, mtime) {
  void atime;
  call('utime', 'setMtime', pathArg(path), timeMs(mtime));
}

function mkdtempSync(prefix) {
  const p = pathArg(prefix, 'prefix');
  for (let attempt = 0; ; attempt++) {
    const suffix = native.decode(new Uint8Array(native.randomBytes(6)), 'base64url').replace(/[-_]/g, 'x');
    const candidate = p + suffix;
    try {
      fsn.mkdir(abs(candidate), false, 0o700);
      return candidate;
    } catch (e) {
      if (attempt > 8 || !e || e.code !== 'EEXIST') throw nodeError(e, 'mkdtemp', `${p}XXXXXX`);
    }
  }
}

const noopSync = () => undefined;

const constants = {
  F_OK: 0,
  R_OK: 4,
  W_OK: 2,
  X_OK: 1,
  COPYFILE_EXCL: 1,
  COPYFILE_FICLONE: 2,
  COPYFILE_FICLONE_FORCE: 4,
  O_RDONLY: 0,
  O_WRONLY: 1,
  O_RDWR: 2,
  O_CREAT: 64,
  O_EXCL: 128,
  O_TRUNC: 512,
  O_APPEND: 1024,
  S_IFMT,
  S_IFREG,
  S_IFDIR,
  S_IFLNK,
};

const sync = {
  readFileSync,
  writeFileSync,
  appendFileSync,
  existsSync,
  statSync,
  lstatSync,
  accessSync,
  mkdirSync,
  readdirSync,
  rmSync,
  rmdirSync,
  unlinkSync,
  renameSync,
  copyFileSync,
  cpSync,
  symlinkSync,
  linkSync,
  readlinkSync,
  realpathSync,
  chmodSync,
  lchmodSync: chmodSync,
  truncateSync,
  utimesSync,
  lutimesSync: utimesSync,
  mkdtempSync,
  chownSync: noopSync,
  lchownSync: noopSync,
};

// ---- promises and callbacks ------------------------------------------------------

// The workspace calls are synchronous host calls; the async forms run them at once
// and settle (promises) or call back on a later turn of the event loop (callbacks).
const promises = { constants };
for (const [name, fn] of Object.entries(sync)) {
  if (name === 'existsSync') continue;
  const base = name.slice(0, -4);
  promises[base] = async (...args) => {
    // An aborted `signal` option rejects as Node's does (the work is synchronous here,
    // so only a signal aborted before the call can stop it).
    const last = args[args.length - 1];
    if (last && typeof last === 'object' && last.signal && last.signal.aborted) {
      const { AbortError } = require('events');
      throw new AbortError(undefined, { cause: last.signal.reason });
    }
    return fn(...args);
  };
  sync[base] = function (...args) {
    const cb = args.pop();
    if (typeof cb !== 'function') throw invalidArgType('cb', 'of type function', cb);
    let result;
    let error = null;
    try {
      result = fn(...args);
    } catch (e) {
      error = e;
    }
    native.queueIo(() => (error ? cb(error) : cb(null, result)));
  };
}
promises.realpath = async (...args) => realpathSync(...args);
sync.exists = (path, cb) => {
  const result = existsSync(path);
  native.queueIo(() => cb(result));
};
sync.realpath.native = sync.realpath;

module.exports = {
  ...sync,
  promises,
  constants,
  Stats,
  Dirent,
  F_OK: 0,
  R_OK: 4,
  W_OK: 2,
  X_OK: 1,
};
require('fs_handle').install(module.exports, promises, fds, { invalidArgType, makeError });
Object.defineProperty(module.exports, 'nodeError', { value: nodeError, enumerable: false });

// A lone surrogate cannot cross into the host as UTF-8: Node writes it as U+FFFD (its
// UTF-8 conversion does), so such a path is simply a name that does not exist. (Kept at
// the end so the line numbers of the functions above, which stacks show, stay put.)
function wellFormed(p) {
  if (typeof p.isWellFormed === 'function') return p.isWellFormed() ? p : p.toWellFormed();
  return p.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}
