// node:util: format/inspect plus the helpers programs commonly reach for.
'use strict';

const { inspect, format } = require('inspect');
const { TextEncoder, TextDecoder } = require('encoding');
const { isDeepStrictEqual } = require('comparisons');

const kCustomPromisify = Symbol.for('nodejs.util.promisify.custom');

function invalidArgType(name, type, value) {
  return require('assert_error').invalidArgType(name, type, value);
}

function promisify(original) {
  if (typeof original !== 'function') throw invalidArgType('original', 'function', original);
  if (typeof original[kCustomPromisify] === 'function') {
    const fn = original[kCustomPromisify];
    return Object.defineProperty(fn, kCustomPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
  }
  function fn(...args) {
    return new Promise((resolve, reject) => {
      Reflect.apply(original, this, [...args, (err, value) => (err ? reject(err) : resolve(value))]);
    });
  }
  Object.setPrototypeOf(fn, Object.getPrototypeOf(original));
  Object.defineProperty(fn, kCustomPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
  return Object.defineProperties(fn, Object.getOwnPropertyDescriptors(original));
}
promisify.custom = kCustomPromisify;

function callbackify(original) {
  if (typeof original !== 'function') throw invalidArgType('original', 'function', original);
  function callbackified(...args) {
    const cb = args.pop();
    if (typeof cb !== 'function') throw invalidArgType('last argument', 'function', cb);
    const onError = (reason) => {
      if (!reason) {
        const err = new Error('Promise was rejected with falsy value');
        err.code = 'ERR_FALSY_VALUE_REJECTION';
        err.reason = reason;
        reason = err;
      }
      process.nextTick(cb, reason);
    };
    Reflect.apply(original, this, args).then((v) => process.nextTick(cb, null, v), onError);
  }
  Object.setPrototypeOf(callbackified, Object.getPrototypeOf(original));
  const desc = Object.getOwnPropertyDescriptors(original);
  if (typeof desc.length.value === 'number') desc.length.value++;
  if (typeof desc.name.value === 'string') desc.name.value += 'Callbackified';
  return Object.defineProperties(callbackified, desc);
}

// Deprecation warnings go to stderr once per code (or per function without one),
// with node's hint after the first.
const warnedCodes = new Set();
let hinted = false;
function emitDeprecation(msg, code) {
  if (code !== undefined) {
    if (warnedCodes.has(code)) return;
    warnedCodes.add(code);
  }
  let text = `(node:${process.pid}) ${code ? `[${code}] ` : ''}DeprecationWarning: ${msg}`;
  if (!hinted) {
    hinted = true;
    text += '\n(Use `node --trace-deprecation ...` to show where the warning was created)';
  }
  process.nextTick(() => process.stderr.write(`${text}\n`));
}

function deprecate(fn, msg, code) {
  if (typeof fn !== 'function') throw invalidArgType('fn', 'function', fn);
  let warned = false;
  function deprecated(...args) {
    if (!warned) {
      warned = true;
      emitDeprecation(msg, code);
    }
    return new.target ? Reflect.construct(fn, args, new.target) : Reflect.apply(fn, this, args);
  }
  Object.setPrototypeOf(deprecated, fn);
  if (fn.prototype) deprecated.prototype = fn.prototype;
  return deprecated;
}

function inherits(ctor, superCtor) {
  if (ctor === undefined || ctor === null) throw invalidArgType('ctor', 'function', ctor);
  if (superCtor === undefined || superCtor === null) throw invalidArgType('superCtor', 'function', superCtor);
  if (superCtor.prototype === undefined) throw invalidArgType('superCtor.prototype', 'object', superCtor.prototype);
  Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
  Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
}

// The escape sequences node's stripVTControlCharacters removes (CSI, OSC and
// two-character sequences).
const ANSI = new RegExp('[\\u001B\\u009B][[\\]()#;?]*' +
  '(?:(?:(?:(?:;[-a-zA-Z\\d\\/\\#&.:=?%@~_]+)*' +
  '|[a-zA-Z\\d]+(?:;[-a-zA-Z\\d\\/\\#&.:=?%@~_]*)*)?' +
  '(?:\\u0007|\\u001B\\u005C|\\u009C))' +
  '|(?:(?:\\d{1,4}(?:;\\d{0,4})*)?[\\dA-PR-TZcf-ntqry=><~]))', 'g');

function stripVTControlCharacters(str) {
  if (typeof str !== 'string') throw invalidArgType('str', 'string', str);
  return str.replace(ANSI, '');
}

function toUSVString(input) {
  const s = `${input}`;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      out += s[i] + s[i + 1];
      i++;
    } else {
      out += c >= 0xd800 && c <= 0xdfff ? '\ufffd' : s[i];
    }
  }
  return out;
}

// inspect.colors: [open, close] SGR codes.
const STYLES = {
  reset: [0, 0], bold: [1, 22], dim: [2, 22], italic: [3, 23], underline: [4, 24], blink: [5, 25], inverse: [7, 27],
  hidden: [8, 28], strikethrough: [9, 29], doubleunderline: [21, 24], black: [30, 39], red: [31, 39], green: [32, 39],
  yellow: [33, 39], blue: [34, 39], magenta: [35, 39], cyan: [36, 39], white: [37, 39], bgBlack: [40, 49], bgRed: [41, 49],
  bgGreen: [42, 49], bgYellow: [43, 49], bgBlue: [44, 49], bgMagenta: [45, 49], bgCyan: [46, 49], bgWhite: [47, 49],
  framed: [51, 54], overlined: [53, 55], gray: [90, 39], redBright: [91, 39], greenBright: [92, 39], yellowBright: [93, 39],
  blueBright: [94, 39], magentaBright: [95, 39], cyanBright: [96, 39], whiteBright: [97, 39], bgGray: [100, 49],
  bgRedBright: [101, 49], bgGreenBright: [102, 49], bgYellowBright: [103, 49], bgBlueBright: [104, 49],
  bgMagentaBright: [105, 49], bgCyanBright: [106, 49], bgWhiteBright: [107, 49],
};

function styleCodes(key) {
  if (!Object.prototype.hasOwnProperty.call(STYLES, key)) {
    const err = new TypeError(`The argument 'format' must be one of: ${Object.keys(STYLES).map((k) => `'${k}'`).join(', ')}. Received ${inspect(key)}`);
    err.code = 'ERR_INVALID_ARG_VALUE';
    throw err;
  }
  return STYLES[key];
}

// As in node 20: a list of formats is always applied; a single one only when the
// stream (stdout) would show colours, which a sandboxed stdout never does.
function styleText(fmt, text, { validateStream = true, stream = process.stdout } = {}) {
  if (typeof text !== 'string') throw invalidArgType('text', 'string', text);
  if (Array.isArray(fmt)) {
    let left = '';
    let right = '';
    for (const key of fmt) {
      const [open, close] = styleCodes(key);
      left += `\u001b[${open}m`;
      right = `\u001b[${close}m${right}`;
    }
    return `${left}${text}${right}`;
  }
  const [open, close] = styleCodes(fmt);
  if (validateStream && !(stream && stream.isTTY && typeof stream.hasColors === 'function' && stream.hasColors())) return text;
  return `\u001b[${open}m${text}\u001b[${close}m`;
}

module.exports = {
  format,
  styleText,
  formatWithOptions: (options, ...args) => format(...args),
  inspect,
  promisify,
  callbackify,
  isDeepStrictEqual,
  deprecate,
  inherits,
  isArray: Array.isArray,
  TextEncoder,
  TextDecoder,
  stripVTControlCharacters,
  toUSVString,
};
Object.defineProperty(module.exports, 'emitDeprecation', { value: emitDeprecation, enumerable: false });
for (const [name, load] of [['types', () => require('util_types').types], ['parseArgs', () => require('util_parse_args').parseArgs],
]) {
  Object.defineProperty(module.exports, name, {
    enumerable: true,
    configurable: true,
    get() {
      const value = load();
      Object.defineProperty(module.exports, name, { value, enumerable: true, writable: true, configurable: true });
      return value;
    },
  });
}
