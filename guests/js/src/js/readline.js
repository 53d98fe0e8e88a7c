// node:readline (and readline/promises): line-by-line reading of any Readable, such
// as process.stdin or a file read stream, as Node does it for a non-terminal input:
// 'line' for each line (\n, \r\n or \r; crlfDelay joins a \r\n split across chunks),
// 'close' at the end, question(), prompt(), and async iteration over the lines.
// There is no TTY here, so a terminal: true interface is treated as a plain one.
'use strict';

const EventEmitter = require('events');
const { StringDecoder } = require('string_decoder');
const { codedError } = require('stream_shared');

const lineEnding = /\r?\n|\r(?!\n)/g;
const kMinCrlfDelay = 100;
const kHistorySize = 30;

function useAfterClose() {
  const err = new Error('readline was closed');
  err.code = 'ERR_USE_AFTER_CLOSE';
  Object.defineProperty(err, 'stack', {
    value: `Error [ERR_USE_AFTER_CLOSE]: readline was closed\n${err.stack || ''}`,
    writable: true,
    configurable: true,
  });
  return err;
}

class Interface extends EventEmitter {
  constructor(input, output, completer, terminal) {
    super();
    let crlfDelay;
    let prompt = '> ';
    let history;
    let historySize;
    if (input && input.input) {
      output = input.output;
      completer = input.completer;
      terminal = input.terminal;
      history = input.history;
      historySize = input.historySize;
      if (input.prompt !== undefined) prompt = input.prompt;
      crlfDelay = input.crlfDelay;
      input = input.input;
    }
    if (!input || typeof input.on !== 'function') {
      const err = new TypeError('The "input" argument must be an instance of Stream');
      err.code = 'ERR_INVALID_ARG_TYPE';
      throw err;
    }
    this.input = input;
    this.output = output;
    this.completer = completer;
    this.history = history || [];
    this.historySize = historySize === undefined ? kHistorySize : historySize;
    this.crlfDelay = crlfDelay ? Math.max(kMinCrlfDelay, crlfDelay) : kMinCrlfDelay;
    this.terminal = false;
    void terminal;
    this.line = '';
    this.cursor = 0;
    this.closed = false;
    this.paused = false;
    this._prompt = prompt;
    this._oldPrompt = prompt;
    this._questionCallback = null;
    this._lineBuffer = null;
    this._sawReturnAt = 0;
    this._decoder = new StringDecoder('utf8');
    const onerror = (err) => this.emit('error', err);
    const ondata = (data) => this._normalWrite(data);
    const onend = () => {
      if (typeof this._lineBuffer === 'string' && this._lineBuffer.length > 0) this.emit('line', this._lineBuffer);
      this.close();
    };
    input.on('error', onerror);
    input.on('data', ondata);
    input.on('end', onend);
    this.once('close', () => {
      input.removeListener('data', ondata);
      input.removeListener('error', onerror);
      input.removeListener('end', onend);
    });
    if (typeof input.resume === 'function') input.resume();
  }

  get columns() {
    return this.output && this.output.columns ? this.output.columns : Infinity;
  }

  setPrompt(prompt) { this._prompt = prompt; }
  getPrompt() { return this._prompt; }

  prompt() {
    if (this.paused) this.resume();
    this._writeToOutput(this._prompt);
  }

  _writeToOutput(text) {
    if (typeof text !== 'string') {
      const err = new TypeError(`The "stringToWrite" argument must be of type string. Received type ${typeof text}`);
      err.code = 'ERR_INVALID_ARG_TYPE';
      throw err;
    }
    if (this.output !== null && this.output !== undefined) this.output.write(text);
  }

  _question(query, cb) {
    if (this.closed) throw useAfterClose();
    if (this._questionCallback) {
      this.prompt();
    } else {
      this._oldPrompt = this._prompt;
      this.setPrompt(query);
      this._questionCallback = cb;
      this.prompt();
    }
  }

  question(query, options, cb) {
    cb = typeof options === 'function' ? options : cb;
    if (options && options.signal && options.signal.aborted) return;
    if (typeof cb === 'function') this._question(query, cb);
  }

  _onLine(line) {
    if (this._questionCallback) {
      const cb = this._questionCallback;
      this._questionCallback = null;
      this.setPrompt(this._oldPrompt);
      cb(line);
    } else {
      this.emit('line', line);
    }
  }

  _normalWrite(b) {
    if (b === undefined) return;
    let string = this._decoder.write(b);
    if (this._sawReturnAt && Date.now() - this._sawReturnAt <= this.crlfDelay) {
      if (string.codePointAt(0) === 10) string = string.slice(1);
      this._sawReturnAt = 0;
    }
    lineEnding.lastIndex = 0;
    let match = lineEnding.exec(string);
    if (match === null) {
      if (string) this._lineBuffer = this._lineBuffer ? this._lineBuffer + string : string;
      return;
    }
    if (this._lineBuffer) {
      string = this._lineBuffer + string;
      this._lineBuffer = null;
      lineEnding.lastIndex = 0;
      match = lineEnding.exec(string);
    }
    this._sawReturnAt = string.endsWith('\r') ? Date.now() : 0;
    const indexes = [0, match.index, lineEnding.lastIndex];
    let next;
    while ((next = lineEnding.exec(string)) !== null) indexes.push(next.index, lineEnding.lastIndex);
    const lastIndex = indexes.length - 1;
    this._lineBuffer = string.slice(indexes[lastIndex]);
    for (let i = 1; i < lastIndex; i += 2) this._onLine(string.slice(indexes[i - 1], indexes[i]));
  }

  write(data) {
    if (this.closed) throw useAfterClose();
    if (this.paused) this.resume();
    this._normalWrite(data);
  }

  close() {
    if (this.closed) return;
    this.pause();
    this.closed = true;
    this.emit('close');
  }

  pause() {
    if (this.paused) return undefined;
    if (typeof this.input.pause === 'function') this.input.pause();
    this.paused = true;
    this.emit('pause');
    return this;
  }

  resume() {
    if (!this.paused) return undefined;
    if (typeof this.input.resume === 'function') this.input.resume();
    this.paused = false;
    this.emit('resume');
    return this;
  }

  getCursorPos() {
    return { rows: 0, cols: this.cursor };
  }

  [Symbol.asyncIterator]() {
    if (this._lines === undefined) this._lines = lineIterator(this);
    return this._lines;
  }
}

// The lines as an async iterator (like events.on(rl, 'line', { close: ['close'] })):
// lines that arrive before they are asked for are queued, pausing the input past 1024.
function lineIterator(rl) {
  const queue = [];
  const waiting = [];
  let finished = false;
  let error = null;
  const settle = () => {
    while (waiting.length && (queue.length || finished || error)) {
      const { resolve, reject } = waiting.shift();
      if (queue.length) resolve({ value: queue.shift(), done: false });
      else if (error) reject(error);
      else resolve({ value: undefined, done: true });
    }
  };
  const online = (line) => {
    queue.push(line);
    if (queue.length > 1024) rl.pause();
    settle();
  };
  const onclose = () => {
    finished = true;
    settle();
  };
  const onerror = (err) => {
    error = err;
    settle();
  };
  rl.on('line', online);
  rl.on('close', onclose);
  rl.on('error', onerror);
  const stop = () => {
    finished = true;
    queue.length = 0;
    rl.removeListener('line', online);
    rl.removeListener('close', onclose);
    rl.removeListener('error', onerror);
    settle();
  };
  return {
    next() {
      if (queue.length) {
        const value = queue.shift();
        if (rl.paused && !rl.closed && queue.length <= 1024) rl.resume();
        return Promise.resolve({ value, done: false });
      }
      if (error) {
        const err = error;
        error = null;
        stop();
        return Promise.reject(err);
      }
      if (finished) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    return() {
      stop();
      return Promise.resolve({ value: undefined, done: true });
    },
    throw(err) {
      stop();
      return Promise.reject(err);
    },
    [Symbol.asyncIterator]() { return this; },
  };
}

const CSI = (s) => `\x1b[${s}`;

function clearLine(stream, dir, callback) {
  if (stream === null || stream === undefined) {
    if (typeof callback === 'function') process.nextTick(callback, null);
    return true;
  }
  const type = dir < 0 ? CSI('1K') : dir > 0 ? CSI('0K') : CSI('2K');
  return stream.write(type, callback);
}

function clearScreenDown(stream, callback) {
  if (stream === null || stream === undefined) {
    if (typeof callback === 'function') process.nextTick(callback, null);
    return true;
  }
  return stream.write(CSI('0J'), callback);
}

function cursorTo(stream, x, y, callback) {
  if (typeof y === 'function') {
    callback = y;
    y = undefined;
  }
  if (stream === null || stream === undefined || (typeof x !== 'number' && typeof y !== 'number')) {
    if (typeof callback === 'function') process.nextTick(callback, null);
    return true;
  }
  const data = typeof y !== 'number' ? CSI(`${x + 1}G`) : CSI(`${y + 1};${x + 1}H`);
  return stream.write(data, callback);
}

function moveCursor(stream, dx, dy, callback) {
  if (stream === null || stream === undefined || !(dx || dy)) {
    if (typeof callback === 'function') process.nextTick(callback, null);
    return true;
  }
  let data = '';
  if (dx < 0) data += CSI(`${-dx}D`);
  else if (dx > 0) data += CSI(`${dx}C`);
  if (dy < 0) data += CSI(`${-dy}A`);
  else if (dy > 0) data += CSI(`${dy}B`);
  return stream.write(data, callback);
}

// readline/promises: question() returns a promise.
class PromisesInterface extends Interface {
  question(query, options) {
    return new Promise((resolve, reject) => {
      if (this.closed) {
        reject(useAfterClose());
        return;
      }
      if (options && options.signal && options.signal.aborted) {
        const err = new Error('The operation was aborted');
        err.name = 'AbortError';
        err.code = 'ABORT_ERR';
        reject(err);
        return;
      }
      this._question(query, resolve);
    });
  }
}

function notSupported(what) {
  return () => {
    throw codedError('ERR_NOT_SUPPORTED_IN_SANDBOX', what);
  };
}

const promises = {
  Interface: PromisesInterface,
  createInterface: (input, output, completer, terminal) => new PromisesInterface(input, output, completer, terminal),
  Readline: notSupported('readline/promises Readline'),
};

module.exports = {
  Interface,
  clearLine,
  clearScreenDown,
  createInterface: (input, output, completer, terminal) => new Interface(input, output, completer, terminal),
  cursorTo,
  emitKeypressEvents() {},
  moveCursor,
  promises,
};
