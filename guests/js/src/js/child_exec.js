// exec and execFile (a child's output collected for a callback, and their
// util.promisify forms), and fork, which a sandbox cannot offer.
'use strict';

const { Buffer } = require('buffer');

function install(cp) {
  const { spawn, shellOptions, kCustomPromisify, notSupported } = cp;

  // (file, args, options, callback) with args and options optional, as node's execFile.
  function execFileArgs(file, rest) {
    let args = [];
    let options = {};
    let callback;
    let i = 0;
    if (Array.isArray(rest[i]) || rest[i] === null || rest[i] === undefined) args = rest[i++] || [];
    if (rest[i] !== null && typeof rest[i] === 'object') options = rest[i++];
    else if (rest[i] === null || rest[i] === undefined) i++;
    if (typeof rest[i] === 'function') callback = rest[i];
    return { file, args, options, callback };
  }

  function execFile(file, ...rest) {
    const { args, options, callback } = execFileArgs(file, rest);
    const opts = { encoding: 'utf8', timeout: 0, maxBuffer: 1024 * 1024, killSignal: 'SIGTERM', ...options };
    const child = spawn(file, args, opts);
    const encoding = opts.encoding && opts.encoding !== 'buffer' && Buffer.isEncoding(opts.encoding) ? opts.encoding : null;
    const out = [];
    const err = [];
    const size = [0, 0];
    let ex = null;
    let killed = false;
    let timer;
    const collect = (which, list) => (chunk) => {
      if (ex !== null) return;
      const room = opts.maxBuffer - size[which];
      size[which] += chunk.length;
      // Output past maxBuffer is cut off, as node keeps only what fits.
      list.push(chunk.length > room ? chunk.subarray(0, Math.max(room, 0)) : chunk);
      if (size[which] > opts.maxBuffer) {
        ex = new RangeError(`${which ? 'stderr' : 'stdout'} maxBuffer length exceeded`);
        ex.code = 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER';
        killed = true;
        child.kill(opts.killSignal);
      }
    };
    if (child.stdout) child.stdout.on('data', collect(0, out));
    if (child.stderr) child.stderr.on('data', collect(1, err));
    if (opts.timeout > 0) {
      timer = setTimeout(() => {
        killed = true;
        child.kill(opts.killSignal);
      }, opts.timeout);
    }
    let done = false;
    function exithandler(code, signal) {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      if (!callback) return;
      const text = (list) => (encoding ? Buffer.concat(list).toString(encoding) : Buffer.concat(list));
      const stdout = text(out);
      const stderr = text(err);
      let cmd = file;
      if (args.length) cmd += ` ${args.join(' ')}`;
      if (!ex && code === 0 && signal === null) {
        callback(null, stdout, stderr);
        return;
      }
      if (!ex) {
        ex = new Error(`Command failed: ${cmd}\n${stderr}`);
        ex.code = code < 0 ? 'ENOENT' : code;
        ex.killed = child.killed || killed;
        ex.signal = signal;
      }
      ex.cmd = cmd;
      callback(ex, stdout, stderr);
    }
    child.on('close', exithandler);
    child.on('error', (e) => {
      ex = e;
      exithandler();
    });
    return child;
  }

  function exec(command, options, callback) {
    if (typeof options === 'function') {
      callback = options;
      options = undefined;
    }
    const opts = shellOptions(command, options);
    return execFile(command, [], opts, callback);
  }

  // util.promisify(exec) resolves to {stdout, stderr}; a failure carries both too.
  function promisified(fn) {
    return function (...args) {
      let child;
      const promise = new Promise((resolve, reject) => {
        child = fn(...args, (err, stdout, stderr) => {
          if (err) {
            err.stdout = stdout;
            err.stderr = stderr;
            reject(err);
          } else resolve({ stdout, stderr });
        });
      });
      promise.child = child;
      return promise;
    };
  }
  Object.defineProperty(exec, kCustomPromisify, { value: promisified(exec), enumerable: false });
  Object.defineProperty(execFile, kCustomPromisify, { value: promisified(execFile), enumerable: false });

  function fork() {
    throw notSupported('child_process.fork');
  }

  Object.assign(cp, { exec, execFile, fork });
  delete cp.shellOptions;
  delete cp.normalize;
  delete cp.kCustomPromisify;
  delete cp.notSupported;
}

module.exports = { install };
