// assert.AssertionError, with node 20's generated messages.
'use strict';

const { inspectValue, READABLE, isObjectLike, createErrDiff, truncatedLines } = require('assert_diff');

function invalidArgType(name, type, value) {
  const kind = name.includes('.') ? 'property' : 'argument';
  const err = new TypeError(`The "${name}" ${kind} must be of type ${type}.${receivedText(value)}`);
  err.code = 'ERR_INVALID_ARG_TYPE';
  return err;
}

function receivedText(value) {
  const { inspect } = require('inspect');
  if (value === null || value === undefined) return ` Received ${value}`;
  if (typeof value === 'function') return ` Received function ${value.name}`;
  if (typeof value === 'object') {
    const name = value.constructor && value.constructor.name;
    return name ? ` Received an instance of ${name}` : ` Received ${inspect(value, { depth: -1 })}`;
  }
  let shown = inspect(value).slice(0, 28);
  if (inspect(value).length > 28) shown += '...';
  return ` Received type ${typeof value} (${shown})`;
}

function unequalMessage(actual, operator) {
  let base = READABLE[operator];
  const lines = truncatedLines(inspectValue(actual));
  if (operator === 'notStrictEqual' && (isObjectLike(actual) || typeof actual === 'function')) {
    base = READABLE.notStrictEqualObject;
  }
  if (lines.length === 1) return `${base}${lines[0].length > 5 ? '\n\n' : ' '}${lines[0]}`;
  return `${base}\n\n${lines.join('\n')}\n`;
}

function otherMessage(actual, expected, operator) {
  let res = inspectValue(actual);
  let other = inspectValue(expected);
  const known = READABLE[operator];
  if (operator === 'notDeepEqual' && res === other) {
    res = `${known}\n\n${res}`;
    return res.length > 1024 ? `${res.slice(0, 1021)}...` : res;
  }
  if (res.length > 512) res = `${res.slice(0, 509)}...`;
  if (other.length > 512) other = `${other.slice(0, 509)}...`;
  if (operator === 'deepEqual') {
    res = `${known}\n\n${res}\n\nshould loosely deep-equal\n\n`;
  } else if (READABLE[`${operator}Unequal`]) {
    res = `${READABLE[`${operator}Unequal`]}\n\n${res}\n\nshould not loosely deep-equal\n\n`;
  } else {
    other = ` ${operator} ${other}`;
  }
  return `${res}${other}`;
}

function generatedMessage(actual, expected, operator) {
  if (operator === 'deepStrictEqual' || operator === 'strictEqual') return createErrDiff(actual, expected, operator);
  if (operator === 'notDeepStrictEqual' || operator === 'notStrictEqual') return unequalMessage(actual, operator);
  return otherMessage(actual, expected, operator);
}

// QuickJS stacks hold only frames: drop those inside the assert modules, so the
// stack starts at the caller as it does in node (Error.captureStackTrace).
function callerFrames(stack) {
  const frames = String(stack || '').split('\n').filter((l) => l !== '');
  let i = 0;
  while (i < frames.length && /\(node:assert[a-z_]*(:|\))/.test(frames[i])) i++;
  return frames.slice(i).join('\n');
}

class AssertionError extends Error {
  constructor(options) {
    if (options === null || typeof options !== 'object') throw invalidArgType('options', 'object', options);
    const { message, operator, details, actual, expected } = options;
    let text;
    if (message != null) {
      text = operator === 'deepStrictEqual' || operator === 'strictEqual'
        ? createErrDiff(actual, expected, operator, message)
        : String(message);
    } else {
      text = generatedMessage(actual, expected, operator);
    }
    super(text);
    this.generatedMessage = !message;
    this.code = 'ERR_ASSERTION';
    if (details) {
      this.actual = undefined;
      this.expected = undefined;
      this.operator = undefined;
      details.forEach((d, i) => {
        this[`message ${i}`] = d.message;
        this[`actual ${i}`] = d.actual;
        this[`expected ${i}`] = d.expected;
        this[`operator ${i}`] = d.operator;
        this[`stack trace ${i}`] = d.stack;
      });
    } else {
      this.actual = actual;
      this.expected = expected;
      this.operator = operator;
    }
    Object.defineProperty(this, 'stack', {
      value: `AssertionError [ERR_ASSERTION]: ${text}\n${callerFrames(this.stack)}`,
      writable: true,
      configurable: true,
      enumerable: false,
    });
  }

  toString() {
    return `${this.name} [${this.code}]: ${this.message}`;
  }
}
Object.defineProperty(AssertionError.prototype, 'name', {
  value: 'AssertionError',
  writable: true,
  configurable: true,
  enumerable: false,
});

module.exports = { AssertionError, invalidArgType, receivedText, callerFrames };
