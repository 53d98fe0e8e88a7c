// node:test: test/it, describe/suite, hooks, test contexts and `mock`, reporting TAP
// on stdout as node 20 does when stdout is not a terminal. Tests start once the
// main module has finished (a later tick); the plan and the summary are printed when
// the event loop has drained, and a failure sets process.exitCode to 1.
'use strict';

const { Test, Suite, TestFailure } = require('test_core');
const { reporter, flush } = require('test_tap');
const { MockTracker, notSupported } = require('test_mock');

let root = null;
let current = null;

function withCurrent(test, fn) {
  const saved = current;
  current = test;
  try {
    return fn();
  } finally {
    current = saved;
  }
}

function newCounters() {
  return { all: 0, suites: 0, passed: 0, failed: 0, cancelled: 0, skipped: 0, todo: 0, topLevel: 0 };
}

function count(test) {
  const c = root.counters;
  if (test.nesting === 0) c.topLevel++;
  if (!test.passed && !test.isTodo) process.exitCode = 1;
  if (test.reportedType === 'suite') {
    c.suites++;
    return;
  }
  if (test.skipped) c.skipped++;
  else if (test.isTodo) c.todo++;
  else if (test.cancelled) c.cancelled++;
  else if (!test.passed) c.failed++;
  else c.passed++;
  c.all++;
}

function finish() {
  root.postRun(new TestFailure('Promise resolution is still pending but the event loop has already resolved', 'cancelledByParent'));
  const c = root.counters;
  reporter.plan(0, c.topLevel);
  for (const d of root.diagnostics) reporter.diagnostic(0, d);
  for (const key of ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo']) {
    const field = { tests: 'all', pass: 'passed', fail: 'failed' }[key] || key;
    reporter.diagnostic(0, `${key} ${c[field]}`);
  }
  reporter.diagnostic(0, `duration_ms ${performance.now() - root.startTime}`);
  flush();
}

function getRoot() {
  if (root !== null) return root;
  root = new Test({ name: '<root>' });
  root.counters = newCounters();
  root.count = count;
  root.allowTestsToRun = false;
  root.startTime = performance.now();
  setImmediate(() => {
    root.allowTestsToRun = true;
    reporter.version();
    root.processPending();
  });
  globalThis[Symbol.for('computer.internal')].beforeExitOnce(finish);
  return root;
}

function parentTest() {
  return current || getRoot();
}

function runTest(name, options, fn, overrides) {
  const parent = parentTest();
  const subtest = parent.createSubtest(Test, name, options, fn, overrides);
  if (parent instanceof Suite) return Promise.resolve();
  return subtest.start();
}

function runSuite(name, options, fn, overrides) {
  const parent = parentTest();
  const suite = parent.createSubtest(Suite, name, options, fn, overrides);
  if (parent instanceof Suite) return Promise.resolve();
  return suite.start();
}

function fullName(test) {
  let name = test.name;
  for (let t = test.parent; t !== null && t !== t.root; t = t.parent) name = `${t.name} > ${name}`;
  return name;
}

const signalStub = Object.freeze({ aborted: false, reason: undefined, addEventListener() {}, removeEventListener() {}, throwIfAborted() {} });

class TestPlan {
  constructor(count) {
    this.expected = count;
    this.actual = 0;
  }

  check() {
    if (this.actual !== this.expected) {
      throw new TestFailure(`plan expected ${this.expected} assertions but received ${this.actual}`, 'testCodeFailure');
    }
  }
}

const ASSERT_METHODS = ['deepEqual', 'deepStrictEqual', 'doesNotMatch', 'doesNotReject', 'doesNotThrow', 'equal', 'fail', 'ifError',
  'match', 'notDeepEqual', 'notDeepStrictEqual', 'notEqual', 'notStrictEqual', 'rejects', 'strictEqual', 'throws'];

class TestContext {
  #test;
  #assert;

  constructor(test) {
    this.#test = test;
  }

  get signal() { return signalStub; }
  get name() { return this.#test.name; }
  get fullName() { return fullName(this.#test); }
  get error() { return this.#test.error; }
  get passed() { return this.#test.passed; }
  get mock() { return (this.#test.mock ??= new MockTracker()); }

  // Counted for t.plan(); the plan is the one set when `assert` is first read.
  get assert() {
    if (this.#assert !== undefined) return this.#assert;
    const assert = require('assert');
    const { plan } = this.#test;
    const out = { __proto__: null };
    for (const name of [...ASSERT_METHODS, 'ok']) {
      out[name] = (...args) => {
        if (plan !== null) plan.actual++;
        return assert[name](...args);
      };
    }
    this.#assert = out;
    return out;
  }

  diagnostic(message) {
    this.#test.diagnostics.push(message);
  }

  plan(count) {
    if (this.#test.plan !== null) throw new TestFailure('cannot set plan more than once', 'testCodeFailure');
    this.#test.plan = new TestPlan(count);
  }

  runOnly() {}

  skip(message) {
    this.#test.skipped = true;
    this.#test.message = message;
  }

  todo(message) {
    this.#test.isTodo = true;
    this.#test.message = message;
  }

  test(name, options, fn) {
    const sub = this.#test.createSubtest(Test, name, options, fn);
    return sub.start();
  }

  before(fn, options) { this.#test.createHook('before', fn, options); }
  after(fn, options) { this.#test.createHook('after', fn, options); }
  beforeEach(fn, options) { this.#test.createHook('beforeEach', fn, options); }
  afterEach(fn, options) { this.#test.createHook('afterEach', fn, options); }
}
class SuiteContext {
  #suite;

  constructor(suite) {
    this.#suite = suite;
  }

  get signal() { return signalStub; }
  get name() { return this.#suite.name; }
  get fullName() { return fullName(this.#suite); }
}

function hook(name) {
  return (fn, options) => parentTest().createHook(name, fn, options);
}

function test(name, options, fn) {
  return runTest(name, options, fn);
}
function describe(name, options, fn) {
  return runSuite(name, options, fn);
}
for (const [fn, runner] of [[test, runTest], [describe, runSuite]]) {
  fn.skip = (n, o, f) => runner(n, o, f, { skip: true });
  fn.todo = (n, o, f) => runner(n, o, f, { todo: true });
  fn.only = (n, o, f) => runner(n, o, f, { only: true });
}

const mock = new MockTracker();

Object.assign(test, {
  after: hook('after'),
  afterEach: hook('afterEach'),
  before: hook('before'),
  beforeEach: hook('beforeEach'),
  describe,
  it: test,
  mock,
  run() {
    throw notSupported('node:test run()');
  },
  suite: describe,
  test,
});
for (const [key, value] of Object.entries({ TestContext, SuiteContext, withCurrent, runCli: (...args) => require('test_cli').runCli(...args) })) {
  Object.defineProperty(test, key, { value, enumerable: false });
}

module.exports = test;
