// assert.throws/rejects/doesNotThrow/doesNotReject: how a caught value is checked
// against a class, a RegExp, an object of expected properties or a function.
'use strict';

const { inspect } = require('inspect');
const { isDeepStrictEqual } = require('comparisons');
const { AssertionError, invalidArgType } = require('assert_error');

const NO_EXCEPTION = Symbol('no exception');

function typeError(code, message) {
  const err = new TypeError(message);
  err.code = code;
  return err;
}

function innerFail(obj) {
  if (obj.message instanceof Error) throw obj.message;
  throw new AssertionError(obj);
}

function invalidError(value) {
  return invalidArgType('error', 'function or an instance of Error, RegExp, or Object', value);
}

function ambiguous(message) {
  return typeError('ERR_AMBIGUOUS_ARGUMENT', `The "error/message" argument is ambiguous. ${message}`);
}

// The shape node shows in the diff of an object check: only the compared keys.
class Comparison {
  constructor(obj, keys, actual) {
    for (const key of keys) {
      if (!(key in obj)) continue;
      if (actual !== undefined && typeof actual[key] === 'string' && obj[key] instanceof RegExp && obj[key].exec(actual[key]) !== null) {
        this[key] = actual[key];
      } else {
        this[key] = obj[key];
      }
    }
  }
}

function compareKey(actual, expected, key, message, keys, name) {
  if (key in actual && isDeepStrictEqual(actual[key], expected[key])) return;
  if (!message) {
    const err = new AssertionError({
      actual: new Comparison(actual, keys),
      expected: new Comparison(expected, keys, actual),
      operator: 'deepStrictEqual',
    });
    err.actual = actual;
    err.expected = expected;
    err.operator = name;
    throw err;
  }
  innerFail({ actual, expected, message, operator: name });
}

function checkObject(actual, expected, message, name) {
  if (typeof actual !== 'object' || actual === null) {
    const err = new AssertionError({ actual, expected, message, operator: 'deepStrictEqual' });
    err.operator = name;
    throw err;
  }
  const keys = Object.keys(expected);
  if (expected instanceof Error) keys.push('name', 'message');
  else if (keys.length === 0) {
    const err = new TypeError(`The argument 'error' may not be an empty object. Received ${inspect(expected)}`);
    err.code = 'ERR_INVALID_ARG_VALUE';
    throw err;
  }
  for (const key of keys) {
    if (typeof actual[key] === 'string' && expected[key] instanceof RegExp && expected[key].exec(actual[key]) !== null) continue;
    compareKey(actual, expected, key, message, keys, name);
  }
}

function classMessage(actual, expected) {
  let message = `The error is expected to be an instance of "${expected.name}". Received `;
  if (actual instanceof Error) {
    const name = (actual.constructor && actual.constructor.name) || actual.name;
    message += expected.name === name ? 'an error with identical name but a different prototype.' : `"${name}"`;
    if (actual.message) message += `\n\nError message:\n\n${actual.message}`;
  } else {
    message += `"${inspect(actual, { depth: -1 })}"`;
  }
  return message;
}

function expectedException(actual, expected, message, name) {
  let generated = false;
  if (typeof expected !== 'function') {
    if (!(expected instanceof RegExp)) return checkObject(actual, expected, message, name);
    const str = String(actual);
    if (expected.exec(str) !== null) return undefined;
    if (!message) {
      generated = true;
      message = `The input did not match the regular expression ${inspect(expected)}. Input:\n\n${inspect(str)}\n`;
    }
  } else if (expected.prototype !== undefined && actual instanceof expected) {
    return undefined;
  } else if (Object.prototype.isPrototypeOf.call(Error, expected)) {
    if (!message) {
      generated = true;
      message = classMessage(actual, expected);
    }
  } else {
    const res = Reflect.apply(expected, {}, [actual]);
    if (res === true) return undefined;
    if (!message) {
      generated = true;
      message = `The ${expected.name ? `"${expected.name}" ` : ''}validation function is expected to return "true". Received ${inspect(res)}`;
      if (actual instanceof Error) message += `\n\nCaught error:\n\n${actual}`;
    }
  }
  const err = new AssertionError({ actual, expected, message, operator: name });
  err.generatedMessage = generated;
  throw err;
}

function expectsError(name, actual, error, message, ...rest) {
  if (typeof error === 'string') {
    if (rest.length > 0 || message !== undefined) throw invalidError(error);
    if (typeof actual === 'object' && actual !== null) {
      if (actual.message === error) throw ambiguous(`The error message "${actual.message}" is identical to the message.`);
    } else if (actual === error) {
      throw ambiguous(`The error "${actual}" is identical to the message.`);
    }
    message = error;
    error = undefined;
  } else if (error != null && typeof error !== 'object' && typeof error !== 'function') {
    throw invalidError(error);
  }
  if (actual === NO_EXCEPTION) {
    let details = error && error.name ? ` (${error.name})` : '';
    details += message ? `: ${message}` : '.';
    const kind = name === 'rejects' ? 'rejection' : 'exception';
    innerFail({ actual: undefined, expected: error, operator: name, message: `Missing expected ${kind}${details}` });
  }
  if (error) expectedException(actual, error, message, name);
}

function hasMatchingError(actual, expected) {
  if (typeof expected !== 'function') {
    if (expected instanceof RegExp) return expected.exec(String(actual)) !== null;
    throw invalidArgType('expected', 'function or an instance of RegExp', expected);
  }
  if (expected.prototype !== undefined && actual instanceof expected) return true;
  if (Object.prototype.isPrototypeOf.call(Error, expected)) return false;
  return Reflect.apply(expected, {}, [actual]) === true;
}

function expectsNoError(name, actual, error, message) {
  if (actual === NO_EXCEPTION) return;
  if (typeof error === 'string') {
    message = error;
    error = undefined;
  }
  if (!error || hasMatchingError(actual, error)) {
    const details = message ? `: ${message}` : '.';
    const kind = name === 'doesNotReject' ? 'rejection' : 'exception';
    innerFail({
      actual,
      expected: error,
      operator: name,
      message: `Got unwanted ${kind}${details}\nActual message: "${actual && actual.message}"`,
    });
  }
  throw actual;
}

module.exports = { expectsError, expectsNoError, NO_EXCEPTION, typeError, innerFail };
