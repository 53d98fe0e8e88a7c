// stream.finished (end-of-stream) and stream.pipeline, with Node's rules for when a
// stream counts as done, and their promise forms (stream/promises).
'use strict';

const shared = require('stream_shared');

const { codedError, invalidArgType, nextTick, nop, isNodeStream } = shared;

function isReadableNodeStream(obj, strict) {
  return !!(obj && typeof obj.pipe === 'function' && typeof obj.on === 'function' &&
    (!strict || (typeof obj.pause === 'function' && typeof obj.resume === 'function')) &&
    (!obj._writableState || (obj._readableState && obj._readableState.readable !== false)) &&
    (!obj._writableState || obj._readableState));
}

function isWritableNodeStream(obj) {
  return !!(obj && typeof obj.write === 'function' && typeof obj.on === 'function' &&
    (!obj._readableState || (obj._writableState && obj._writableState.writable !== false)));
}

function isIterable(obj, isAsync) {
  if (obj == null) return false;
  if (isAsync === true) return typeof obj[Symbol.asyncIterator] === 'function';
  if (isAsync === false) return typeof obj[Symbol.iterator] === 'function';
  return typeof obj[Symbol.asyncIterator] === 'function' || typeof obj[Symbol.iterator] === 'function';
}

function isDestroyed(stream) {
  if (!isNodeStream(stream)) return null;
  const state = stream._writableState || stream._readableState;
  return !!(stream.destroyed || (state && state.destroyed));
}

function isWritableFinished(stream, strict) {
  if (!isWritableNodeStream(stream)) return null;
  if (stream.writableFinished === true) return true;
  const w = stream._writableState;
  if (w && w.errored) return false;
  if (!w || typeof w.finished !== 'boolean') return null;
  return !!(w.finished || (strict === false && w.ended === true && w.length === 0));
}

function isReadableFinished(stream, strict) {
  if (!isReadableNodeStream(stream)) return null;
  const r = stream._readableState;
  if (r && r.errored) return false;
  if (!r || typeof r.endEmitted !== 'boolean') return null;
  return !!(r.endEmitted || (strict === false && r.ended === true && r.length === 0));
}

function isWritableEnded(stream) {
  if (stream.writableEnded === true) return true;
  const w = stream._writableState;
  if (w && w.errored) return false;
  if (!w || typeof w.ended !== 'boolean') return null;
  return w.ended;
}

function isReadable(stream) {
  if (!stream || typeof stream.readable !== 'boolean') return null;
  if (isDestroyed(stream)) return false;
  return isReadableNodeStream(stream) && stream.readable && !isReadableFinished(stream);
}

function isWritable(stream) {
  if (!stream || typeof stream.writable !== 'boolean') return null;
  if (isDestroyed(stream)) return false;
  return isWritableNodeStream(stream) && stream.writable && !isWritableEnded(stream);
}

function isClosed(stream) {
  const w = stream._writableState;
  const r = stream._readableState;
  if ((w && typeof w.closed === 'boolean') || (r && typeof r.closed === 'boolean')) {
    return (w && w.closed) || (r && r.closed);
  }
  return null;
}

function willEmitClose(stream) {
  const state = stream._writableState || stream._readableState;
  return !!(state && state.autoDestroy && state.emitClose && state.closed === false);
}

function erroredOf(stream) {
  const w = stream._writableState;
  const r = stream._readableState;
  return stream.writableErrored || (w && w.errored) || stream.readableErrored || (r && r.errored) || null;
}

function once(fn) {
  let called = false;
  return function (...args) {
    if (called) return;
    called = true;
    fn.apply(this, args);
  };
}

function eos(stream, options, callback) {
  if (typeof options === 'function') {
    callback = options;
    options = {};
  } else if (options == null) {
    options = {};
  }
  if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
  if (!isNodeStream(stream)) throw invalidArgType('stream', 'an instance of ReadableStream, WritableStream, or Stream', stream);
  let cb = once(callback);
  const readable = options.readable != null ? options.readable : isReadableNodeStream(stream);
  const writable = options.writable != null ? options.writable : isWritableNodeStream(stream);
  const wState = stream._writableState;
  const rState = stream._readableState;
  let emitsClose = willEmitClose(stream) && isReadableNodeStream(stream) === readable &&
    isWritableNodeStream(stream) === writable;
  let writableFinished = isWritableFinished(stream, false);
  let readableFinished = isReadableFinished(stream, false);
  const onfinish = () => {
    writableFinished = true;
    if (stream.destroyed) emitsClose = false;
    if (emitsClose && (!stream.readable || readable)) return;
    if (!readable || readableFinished) cb.call(stream);
  };
  const onend = () => {
    readableFinished = true;
    if (stream.destroyed) emitsClose = false;
    if (emitsClose && (!stream.writable || writable)) return;
    if (!writable || writableFinished) cb.call(stream);
  };
  const onlegacyfinish = () => {
    if (!stream.writable) onfinish();
  };
  const onerror = (err) => cb.call(stream, err);
  const onclose = () => {
    const errored = erroredOf(stream);
    if (errored && typeof errored !== 'boolean') return cb.call(stream, errored);
    if (readable && !readableFinished && isReadableNodeStream(stream, true) && !isReadableFinished(stream, false)) {
      return cb.call(stream, codedError('ERR_STREAM_PREMATURE_CLOSE'));
    }
    if (writable && !writableFinished && !isWritableFinished(stream, false)) {
      return cb.call(stream, codedError('ERR_STREAM_PREMATURE_CLOSE'));
    }
    return cb.call(stream);
  };
  const onclosed = () => {
    const errored = erroredOf(stream);
    if (errored && typeof errored !== 'boolean') return cb.call(stream, errored);
    return cb.call(stream);
  };
  if (writable && !wState) {
    stream.on('end', onlegacyfinish);
    stream.on('close', onlegacyfinish);
  }
  stream.on('end', onend);
  stream.on('finish', onfinish);
  if (options.error !== false) stream.on('error', onerror);
  stream.on('close', onclose);
  if (isClosed(stream)) {
    nextTick(onclose);
  } else if ((wState && wState.errorEmitted) || (rState && rState.errorEmitted)) {
    if (!emitsClose) nextTick(onclosed);
  } else if (!readable && (!emitsClose || isReadable(stream)) &&
    (writableFinished || isWritable(stream) === false) && (!wState || wState.pendingcb === 0)) {
    nextTick(onclosed);
  } else if (!writable && (!emitsClose || isWritable(stream)) &&
    (readableFinished || isReadable(stream) === false)) {
    nextTick(onclosed);
  }
  return function cleanup() {
    cb = nop;
    stream.removeListener('end', onlegacyfinish);
    stream.removeListener('close', onlegacyfinish);
    stream.removeListener('finish', onfinish);
    stream.removeListener('end', onend);
    stream.removeListener('error', onerror);
    stream.removeListener('close', onclose);
  };
}

function destroyerOf(stream, reading, writing) {
  let finished = false;
  stream.on('close', () => {
    finished = true;
  });
  const cleanup = eos(stream, { readable: reading, writable: writing }, (err) => {
    finished = !err;
  });
  return {
    destroy(err) {
      if (finished) return;
      finished = true;
      shared.destroyer(stream, err || codedError('ERR_STREAM_DESTROYED', 'pipe'));
    },
    cleanup,
  };
}

async function* fromReadable(val) {
  yield* require('stream_readable').prototype[Symbol.asyncIterator].call(val);
}

function makeAsyncIterable(val) {
  if (isIterable(val)) return val;
  if (isReadableNodeStream(val)) return fromReadable(val);
  throw invalidArgType('val', 'an instance of Readable, Iterable, or AsyncIterable', val);
}

async function pumpToNode(iterable, writable, finish, { end }) {
  let error;
  let onresolve = null;
  const resume = (err) => {
    if (err) error = err;
    if (onresolve) {
      const callback = onresolve;
      onresolve = null;
      callback();
    }
  };
  const wait = () => new Promise((resolve, reject) => {
    if (error) reject(error);
    else onresolve = () => (error ? reject(error) : resolve());
  });
  writable.on('drain', resume);
  const cleanup = eos(writable, { readable: false }, resume);
  try {
    if (writable.writableNeedDrain) await wait();
    for await (const chunk of iterable) {
      if (!writable.write(chunk)) await wait();
    }
    if (end) {
      writable.end();
      await wait();
    }
    finish();
  } catch (err) {
    finish(error || err);
  } finally {
    cleanup();
    writable.off('drain', resume);
  }
}

function pipe(src, dst, finish, { end }) {
  let ended = false;
  dst.on('close', () => {
    if (!ended) finish(codedError('ERR_STREAM_PREMATURE_CLOSE'));
  });
  src.pipe(dst, { end: false });
  if (end) {
    const endFn = () => {
      ended = true;
      dst.end();
    };
    if (isReadableFinished(src)) nextTick(endFn);
    else src.once('end', endFn);
  } else {
    finish();
  }
  eos(src, { readable: true, writable: false }, (err) => {
    const r = src._readableState;
    if (err && err.code === 'ERR_STREAM_PREMATURE_CLOSE' && r && r.ended && !r.errored && !r.errorEmitted) {
      src.once('end', finish).once('error', finish);
    } else {
      finish(err);
    }
  });
  return eos(dst, { readable: false, writable: true }, finish);
}

function pipelineImpl(streams, callback, opts) {
  if (streams.length === 1 && Array.isArray(streams[0])) streams = streams[0];
  if (streams.length < 2) throw codedError('ERR_MISSING_ARGS', 'streams');
  const lastStreamCleanup = [];
  const destroys = [];
  let error;
  let value;
  let finishCount = 0;
  function finishImpl(err, final) {
    if (err && (!error || error.code === 'ERR_STREAM_PREMATURE_CLOSE')) error = err;
    if (!error && !final) return;
    while (destroys.length) destroys.shift()(error);
    if (final) {
      if (!error) lastStreamCleanup.forEach((fn) => fn());
      nextTick(callback, error, value);
    }
  }
  const finish = (err) => finishImpl(err, --finishCount === 0);
  let ret;
  for (let i = 0; i < streams.length; i++) {
    const stream = streams[i];
    const reading = i < streams.length - 1;
    const writing = i > 0;
    const end = reading || !opts || opts.end !== false;
    const isLastStream = i === streams.length - 1;
    if (isNodeStream(stream)) {
      if (end) {
        const { destroy, cleanup } = destroyerOf(stream, reading, writing);
        destroys.push(destroy);
        if (isReadable(stream) && isLastStream) lastStreamCleanup.push(cleanup);
      }
      // Errors that come after the pipe has completed.
      const onError = (err) => {
        if (err && err.name !== 'AbortError' && err.code !== 'ERR_STREAM_PREMATURE_CLOSE') finish(err);
      };
      stream.on('error', onError);
      if (isReadable(stream) && isLastStream) lastStreamCleanup.push(() => stream.removeListener('error', onError));
    }
    if (i === 0) {
      if (typeof stream === 'function') {
        ret = stream({ signal: undefined });
        if (!isIterable(ret)) throw codedError('ERR_INVALID_RETURN_VALUE', 'Iterable, AsyncIterable or Stream', 'source');
      } else if (isIterable(stream) || isReadableNodeStream(stream)) {
        ret = stream;
      } else {
        ret = require('stream_duplex').Duplex.from(stream);
      }
    } else if (typeof stream === 'function') {
      ret = stream(makeAsyncIterable(ret), { signal: undefined });
      if (reading) {
        if (!isIterable(ret, true)) throw codedError('ERR_INVALID_RETURN_VALUE', 'AsyncIterable', `transform[${i - 1}]`);
      } else {
        ret = pumpLast(ret, end);
      }
    } else if (isNodeStream(stream)) {
      if (isReadableNodeStream(ret)) {
        finishCount += 2;
        const cleanup = pipe(ret, stream, finish, { end });
        if (isReadable(stream) && isLastStream) lastStreamCleanup.push(cleanup);
      } else if (isIterable(ret)) {
        finishCount++;
        pumpToNode(ret, stream, finish, { end });
      } else {
        throw invalidArgType('val', 'an instance of Readable, Iterable, or AsyncIterable', ret);
      }
      ret = stream;
    } else {
      ret = require('stream_duplex').Duplex.from(stream);
    }
  }
  // A last function's result goes through a PassThrough, so that pipeline() always
  // returns a stream.
  function pumpLast(result, end) {
    const { PassThrough } = require('stream_duplex');
    const pt = new PassThrough({ objectMode: true });
    const then = result && result.then;
    if (typeof then === 'function') {
      finishCount++;
      then.call(result, (val) => {
        value = val;
        if (val != null) pt.write(val);
        if (end) pt.end();
        nextTick(finish);
      }, (err) => {
        pt.destroy(err);
        nextTick(finish, err);
      });
    } else if (isIterable(result, true)) {
      finishCount++;
      pumpToNode(result, pt, finish, { end });
    } else {
      throw codedError('ERR_INVALID_RETURN_VALUE', 'AsyncIterable or Promise', 'destination');
    }
    const { destroy, cleanup } = destroyerOf(pt, false, true);
    destroys.push(destroy);
    lastStreamCleanup.push(cleanup);
    return pt;
  }
  return ret;
}

function pipeline(...streams) {
  const callback = streams.pop();
  if (typeof callback !== 'function') {
    throw invalidArgType('streams[stream.length - 1]', 'of type function', callback);
  }
  return pipelineImpl(streams, once(callback));
}

function isOptions(obj) {
  return obj !== null && typeof obj === 'object' && !isNodeStream(obj) && !isIterable(obj) &&
    typeof obj.then !== 'function';
}

const promises = {
  pipeline(...streams) {
    return new Promise((resolve, reject) => {
      let opts;
      const last = streams[streams.length - 1];
      if (streams.length > 2 && isOptions(last)) opts = streams.pop();
      pipelineImpl(streams, (err, value) => (err ? reject(err) : resolve(value)), opts);
    });
  },
  finished(stream, opts) {
    return new Promise((resolve, reject) => {
      eos(stream, opts, (err) => (err ? reject(err) : resolve()));
    });
  },
};

module.exports = {
  finished: eos,
  pipeline,
  promises,
  isReadable,
  isWritable,
  isDestroyed,
  isErrored: (stream) => !!erroredOf(stream),
};
