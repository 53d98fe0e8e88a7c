// node:assert (and node:assert/strict as `.strict`), following node 20's checks,
// argument validation and messages.
'use strict';

const { inspect } = require('inspect');
const { isDeepEqual, isDeepStrictEqual } = require('comparisons');
const { AssertionError, invalidArgType } = require('assert_error');
const { falsyMessage } = require('assert_source');
const { expectsError, expectsNoError, NO_EXCEPTION, typeError, innerFail } = require('assert_throws');

function missingArgs() {
  return typeError('ERR_MISSING_ARGS', 'The "actual" and "expected" arguments must be specified');
}

function innerOk(fn, argLen, value, message) {
  if (value) return;
  let generated = false;
  if (argLen === 0) {
    generated = true;
    message = 'No value argument passed to `assert.ok()`';
  } else if (message == null) {
    generated = true;
    message = falsyMessage(new Error().stack);
  } else if (message instanceof Error) {
    throw message;
  }
  const err = new AssertionError({ actual: value, expected: true, message, operator: '==', stackStartFn: fn });
  err.generatedMessage = generated;
  throw err;
}

function assert(...args) {
  innerOk(assert, args.length, ...args);
}
assert.ok = function ok(...args) {
  innerOk(ok, args.length, ...args);
};

let failWarned = false;
assert.fail = function fail(actual, expected, message, operator, stackStartFn) {
  const argc = arguments.length;
  let internal = false;
  if (actual == null && argc <= 1) {
    internal = true;
    message = 'Failed';
  } else if (argc === 1) {
    message = actual;
    actual = undefined;
  } else {
    if (!failWarned) {
      failWarned = true;
      require('util').emitDeprecation('assert.fail() with more than one argument is deprecated. Please use assert.strictEqual() instead or only pass a message.', 'DEP0094');
    }
    if (argc === 2) operator = '!=';
  }
  if (message instanceof Error) throw message;
  const err = new AssertionError({ actual, expected, operator: operator === undefined ? 'fail' : operator, stackStartFn, message });
  if (internal) err.generatedMessage = true;
  throw err;
};

function comparison(name, operator, fails) {
  const fn = {
    [name](actual, expected, message) {
      if (arguments.length < 2) throw missingArgs();
      if (fails(actual, expected)) innerFail({ actual, expected, message, operator });
    },
  }[name];
  return fn;
}

// eslint-disable-next-line eqeqeq
const looseUnequal = (a, b) => a != b && (!Number.isNaN(a) || !Number.isNaN(b));
assert.equal = comparison('equal', '==', looseUnequal);
assert.notEqual = comparison('notEqual', '!=', (a, b) => !looseUnequal(a, b));
assert.strictEqual = comparison('strictEqual', 'strictEqual', (a, b) => !Object.is(a, b));
assert.notStrictEqual = comparison('notStrictEqual', 'notStrictEqual', (a, b) => Object.is(a, b));
assert.deepEqual = comparison('deepEqual', 'deepEqual', (a, b) => !isDeepEqual(a, b));
assert.notDeepEqual = comparison('notDeepEqual', 'notDeepEqual', (a, b) => isDeepEqual(a, b));
assert.deepStrictEqual = comparison('deepStrictEqual', 'deepStrictEqual', (a, b) => !isDeepStrictEqual(a, b));
assert.notDeepStrictEqual = comparison('notDeepStrictEqual', 'notDeepStrictEqual', (a, b) => isDeepStrictEqual(a, b));

assert.ifError = function ifError(err) {
  if (err === null || err === undefined) return;
  let message = 'ifError got unwanted exception: ';
  if (typeof err === 'object' && typeof err.message === 'string') {
    message += err.message.length === 0 && err.constructor ? err.constructor.name : err.message;
  } else {
    message += inspect(err);
  }
  throw new AssertionError({ actual: err, expected: null, operator: 'ifError', message });
};

function internalMatch(string, regexp, message, name) {
  if (!(regexp instanceof RegExp)) throw invalidArgType('regexp', 'RegExp', regexp);
  const wanted = name === 'match';
  if (typeof string === 'string' && (regexp.exec(string) !== null) === wanted) return;
  if (message instanceof Error) throw message;
  const generated = !message;
  if (!message) {
    if (typeof string !== 'string') {
      message = `The "string" argument must be of type string. Received type ${typeof string} (${inspect(string)})`;
    } else {
      message = (wanted ? 'The input did not match the regular expression ' : 'The input was expected to not match the regular expression ') +
        `${inspect(regexp)}. Input:\n\n${inspect(string)}\n`;
    }
  }
  const err = new AssertionError({ actual: string, expected: regexp, message, operator: name });
  err.generatedMessage = generated;
  throw err;
}
assert.match = function match(string, regexp, message) {
  internalMatch(string, regexp, message, 'match');
};
assert.doesNotMatch = function doesNotMatch(string, regexp, message) {
  internalMatch(string, regexp, message, 'doesNotMatch');
};


function getActual(fn) {
  if (typeof fn !== 'function') throw invalidArgType('fn', 'function', fn);
  try {
    fn();
  } catch (e) {
    return e;
  }
  return NO_EXCEPTION;
}

async function waitForActual(promiseFn) {
  let promise;
  if (typeof promiseFn === 'function') {
    promise = promiseFn();
    if (promise === null || (typeof promise !== 'object' && typeof promise !== 'function') || typeof promise.then !== 'function') {
      throw typeError('ERR_INVALID_RETURN_VALUE', `Expected instance of Promise to be returned from the "promiseFn" function but got ${returnedType(promise)}.`);
    }
  } else if (promiseFn !== null && typeof promiseFn === 'object' && typeof promiseFn.then === 'function' && typeof promiseFn.catch === 'function') {
    promise = promiseFn;
  } else {
    throw invalidArgType('promiseFn', 'function or an instance of Promise', promiseFn);
  }
  try {
    await promise;
  } catch (e) {
    return e;
  }
  return NO_EXCEPTION;
}

function returnedType(v) {
  if (v === null || v === undefined) return String(v);
  if (typeof v === 'object') return `instance of ${v.constructor ? v.constructor.name : 'Object'}`;
  return `type ${typeof v}`;
}

assert.throws = function throws(fn, ...args) {
  expectsError('throws', getActual(fn), ...args);
};
assert.rejects = async function rejects(promiseFn, ...args) {
  expectsError('rejects', await waitForActual(promiseFn), ...args);
};
assert.doesNotThrow = function doesNotThrow(fn, ...args) {
  expectsNoError('doesNotThrow', getActual(fn), ...args);
};
assert.doesNotReject = async function doesNotReject(fn, ...args) {
  expectsNoError('doesNotReject', await waitForActual(fn), ...args);
};

assert.AssertionError = AssertionError;

function strict(...args) {
  innerOk(strict, args.length, ...args);
}
Object.assign(strict, assert, {
  equal: assert.strictEqual,
  notEqual: assert.notStrictEqual,
  deepEqual: assert.deepStrictEqual,
  notDeepEqual: assert.notDeepStrictEqual,
});
strict.strict = strict;
assert.strict = strict;

module.exports = assert;
