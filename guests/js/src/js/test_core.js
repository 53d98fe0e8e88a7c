// node:test's tests, suites and hooks, following node 20's lifecycle: a parent runs
// one subtest at a time (concurrency 1), subtests still running when their parent
// ends are cancelled, failed subtests fail the parent, results are reported in order
// as each test ends, and the root reports its plan and summary when the run is about
// to exit.
'use strict';

const { inspect } = require('inspect');
const { reporter } = require('test_tap');

const HOOKS = ['before', 'after', 'beforeEach', 'afterEach'];
const noop = () => {};
const now = () => performance.now();

class TestFailure extends Error {
  constructor(error, failureType) {
    let msg = error?.message ?? error;
    if (typeof msg !== 'string') msg = inspect(msg);
    super(msg);
    this.failureType = failureType;
    this.cause = error;
    this.code = 'ERR_TEST_FAILURE';
    // node hides its internal frames, which leaves none.
    Object.defineProperty(this, 'stack', { value: `Error [ERR_TEST_FAILURE]: ${msg}`, writable: true, configurable: true });
  }
}
const isTestFailure = (e) => e instanceof TestFailure;

// The test()/it() call site, as `file:line:column`.
function callerLocation() {
  const frames = String(new Error().stack || '').split('\n');
  for (const f of frames) {
    if (f.trim() === '' || /\(node:(test|test_core|test_tap|test_mock)(:|\))/.test(f)) continue;
    const m = /\(?([^()\s]+):(\d+):(\d+)\)?$/.exec(f.trim());
    if (m && !m[1].startsWith('node:')) return `${m[1]}:${m[2]}:${m[3]}`;
  }
  return null;
}

function runOnce(fn) {
  let promise = null;
  return (...args) => (promise ??= fn(...args));
}

function stopTest(timeout) {
  if (timeout == null || timeout === Infinity) return { promise: new Promise(noop), dispose: noop };
  let timer;
  const promise = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new TestFailure(`test timed out after ${timeout}ms`, 'testTimeoutFailure')), timeout);
  });
  return { promise, dispose: () => clearTimeout(timer) };
}

function deferredCallback() {
  let calls = 0;
  let resolve;
  let reject;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const cb = (err) => {
    calls++;
    if (calls > 1) {
      if (calls === 2) throw new TestFailure('callback invoked multiple times', 'multipleCallbackInvocations');
      return;
    }
    if (err) reject(err);
    else resolve();
  };
  return { promise, cb };
}

class Test {
  constructor(options) {
    let { fn, name, parent, skip } = options;
    const { only, timeout, todo, loc, plan } = options;
    if (typeof fn !== 'function') fn = noop;
    if (typeof name !== 'string' || name === '') name = fn.name || '<anonymous>';
    if (!(parent instanceof Test)) parent = null;
    this.parent = parent;
    this.name = name;
    this.loc = loc ?? null;
    if (parent === null) {
      this.nesting = 0;
      this.testNumber = 0;
      this.timeout = null;
      this.root = this;
    } else {
      this.nesting = parent.parent === null ? parent.nesting : parent.nesting + 1;
      this.testNumber = parent.subtests.length + 1;
      this.timeout = parent.timeout;
      this.root = parent.root;
    }
    this.hooks = {
      before: [],
      after: [],
      beforeEach: parent ? parent.hooks.beforeEach.slice() : [],
      afterEach: parent ? parent.hooks.afterEach.slice() : [],
      ownAfterEachCount: 0,
    };
    if (timeout != null && timeout !== Infinity) this.timeout = timeout;
    if (skip) fn = noop;
    this.fn = fn;
    this.skipped = skip !== undefined && skip !== false;
    this.isTodo = todo !== undefined && todo !== false;
    this.message = typeof skip === 'string' ? skip : typeof todo === 'string' ? todo : null;
    this.expectedAssertions = plan;
    this.plan = null;
    this.mock = null;
    this.cancelled = false;
    this.startTime = null;
    this.endTime = null;
    this.passed = false;
    this.error = null;
    this.diagnostics = [];
    this.subtests = [];
    this.pending = [];
    this.active = 0;
    this.finished = false;
    this.reportedStart = false;
    if (only) this.diagnostics.push("'only' and 'runOnly' require the --test-only command-line option.");
  }

  createSubtest(Factory, name, options, fn, overrides) {
    if (typeof name === 'function') fn = name;
    else if (name !== null && typeof name === 'object') {
      fn = options;
      options = name;
    } else if (typeof options === 'function') {
      fn = options;
    }
    if (options === null || typeof options !== 'object') options = {};
    let parent = this;
    const tooLate = this.finished || this.buildPhaseFinished;
    if (tooLate) parent = this.root;
    const test = new Factory({ ...options, fn, name, parent, loc: callerLocation(), ...overrides });
    if (tooLate) test.fail(new TestFailure('test could not be started because its parent finished', 'parentAlreadyFinished'));
    parent.subtests.push(test);
    return test;
  }

  createHook(name, fn, options) {
    if (!HOOKS.includes(name)) throw new TypeError(`The argument 'hook name' must be one of: ${HOOKS.map((h) => `'${h}'`).join(', ')}. Received '${name}'`);
    const hook = new TestHook(fn, { ...(options || {}), hookType: name, parent: this });
    if (name === 'before' || name === 'after') hook.run = runOnce(hook.run.bind(hook));
    if (name === 'before' && this.startTime !== null) {
      hook.run(this.getRunArgs()).then(() => {
        if (hook.error != null) this.fail(hook.error);
      });
    }
    if (name === 'afterEach') this.hooks.afterEach.splice(this.hooks.ownAfterEachCount++, 0, hook);
    else this.hooks[name].push(hook);
    return hook;
  }

  fail(err) {
    if (this.error !== null) return;
    this.passed = false;
    this.error = err;
  }

  pass() {
    if (this.error === null) this.passed = true;
  }

  cancel(error) {
    if (this.endTime !== null || this.error !== null) return;
    this.fail(error || new TestFailure('test did not finish before its parent and was cancelled', 'cancelledByParent'));
    this.cancelled = true;
  }

  start() {
    if (!this.root.allowTestsToRun || this.parent.active >= 1) {
      return new Promise((resolve) => this.parent.pending.push({ test: this, resolve }));
    }
    return this.run();
  }

  async processPending() {
    while (this.pending.length > 0 && this.active < 1) {
      const { test, resolve } = this.pending.shift();
      await test.run();
      resolve();
    }
  }

  getRunArgs() {
    const { TestContext } = require('test');
    const ctx = new TestContext(this);
    return { ctx, args: [ctx] };
  }

  async runHook(name, args) {
    try {
      for (const hook of this.hooks[name]) {
        await hook.run(args);
        if (hook.error) throw hook.error;
      }
    } catch (err) {
      const error = new TestFailure(`failed running ${name} hook`, 'hookFailed');
      error.cause = isTestFailure(err) ? err.cause : err;
      throw error;
    }
  }

  async callFn(ctx, stop) {
    const withCallback = this.fn.length === 2;
    if (withCallback) {
      const { promise, cb } = deferredCallback();
      const ret = this.withCurrent(() => this.fn.call(ctx, ctx, cb));
      if (ret instanceof Promise) {
        this.fail(new TestFailure('passed a callback but also returned a Promise', 'callbackAndPromisePresent'));
        await Promise.race([ret, stop]);
      } else {
        await Promise.race([promise, stop]);
      }
    } else {
      await Promise.race([Promise.resolve(this.withCurrent(() => this.fn.call(ctx, ctx))), stop]);
    }
  }

  withCurrent(fn) {
    return require('test').withCurrent(this, fn);
  }

  async run() {
    if (this.parent !== null) this.parent.active++;
    this.startTime ??= now();
    const hookArgs = this.getRunArgs();
    const { ctx } = hookArgs;
    if (this.plan === null && this.expectedAssertions) ctx.plan(this.expectedAssertions);
    const after = async () => {
      if (this.hooks.after.length > 0) await this.runHook('after', hookArgs);
    };
    const afterEach = runOnce(async () => {
      if (this.parent?.hooks.afterEach.length > 0 && !this.skipped) await this.parent.runHook('afterEach', hookArgs);
    });
    let stop = null;
    try {
      if (this.parent?.hooks.before.length > 0) await this.parent.runHook('before', this.parent.getRunArgs());
      if (this.parent?.hooks.beforeEach.length > 0 && !this.skipped) await this.parent.runHook('beforeEach', hookArgs);
      stop = stopTest(this.timeout);
      await this.callFn(ctx, stop.promise);
      this.plan?.check();
      this.pass();
      await afterEach();
      await after();
    } catch (err) {
      if (isTestFailure(err)) {
        if (err.failureType === 'testTimeoutFailure') this.cancel(err);
        else this.fail(err);
      } else {
        this.fail(new TestFailure(err, 'testCodeFailure'));
      }
      try {
        await afterEach();
      } catch {
        // The test is already failing.
      }
      try {
        await after();
      } catch {
        // The test is already failing.
      }
    } finally {
      stop?.dispose();
    }
    if (this.parent !== null || typeof this.hookType === 'string') this.postRun();
  }

  postRun(pendingError) {
    // A cancelled test that ends later was already reported.
    if (this.finished) return;
    this.endTime ??= now();
    this.startTime ??= this.endTime;
    this.pending = [];
    let failed = 0;
    for (const sub of this.subtests) {
      if (!sub.finished) {
        sub.cancel(pendingError);
        sub.postRun(pendingError);
      }
      if (!sub.passed && !sub.isTodo) failed++;
    }
    if ((this.passed || this.parent === null) && failed > 0) {
      this.fail(new TestFailure(`${failed} subtest${failed > 1 ? 's' : ''} failed`, 'subtestsFailed'));
    }
    this.mock?.reset();
    if (this.parent === null) return;
    this.finished = true;
    this.report();
    this.parent.active--;
    this.parent.processPending();
    const root = this.root;
    if (this.parent === root && root.active === 0 && root.pending.length === 0) root.run();
  }

  duration() {
    return this.endTime - this.startTime;
  }

  report() {
    this.root.count(this);
    if (this.subtests.length > 0) reporter.plan(this.subtests[0].nesting, this.subtests.length);
    else this.reportStarted();
    const details = { duration_ms: this.duration() };
    if (this.reportedType) details.type = this.reportedType;
    if (!this.passed) details.error = this.error;
    reporter.result({
      nesting: this.nesting,
      number: this.testNumber,
      name: this.name,
      passed: this.passed,
      skip: this.skipped ? (this.message ?? '') : undefined,
      todo: !this.skipped && this.isTodo ? (this.message ?? '') : undefined,
      details,
      location: this.loc,
    });
    for (const d of this.diagnostics) reporter.diagnostic(this.nesting, d);
  }

  reportStarted() {
    if (this.reportedStart || this.parent === null) return;
    this.reportedStart = true;
    this.parent.reportStarted();
    reporter.start(this.nesting, this.name);
  }
}

class TestHook extends Test {
  constructor(fn, options) {
    super({ fn, timeout: options.timeout });
    this.parentTest = options.parent ?? null;
    this.hookType = options.hookType;
  }

  run(args) {
    if (this.error) {
      this.passed = false;
      this.error = null;
    }
    this.hookArgs = args;
    return super.run();
  }

  getRunArgs() {
    return this.hookArgs;
  }

  postRun() {
    this.endTime ??= now();
  }
}

class Suite extends Test {
  constructor(options) {
    super(options);
    this.reportedType = 'suite';
    try {
      const { ctx } = this.getRunArgs();
      const ret = this.withCurrent(() => this.fn.call(ctx, ctx));
      this.buildSuite = Promise.resolve(ret)
        .then(undefined, (err) => this.fail(new TestFailure(err, 'testCodeFailure')))
        .finally(() => {
          this.buildPhaseFinished = true;
        });
    } catch (err) {
      this.fail(new TestFailure(err, 'testCodeFailure'));
      this.buildPhaseFinished = true;
      this.buildSuite = Promise.resolve();
    }
    this.fn = noop;
  }

  getRunArgs() {
    const { SuiteContext } = require('test');
    const ctx = new SuiteContext(this);
    return { ctx, args: [ctx] };
  }

  async run() {
    const hookArgs = this.getRunArgs();
    const after = runOnce(() => this.runHook('after', hookArgs));
    let stop = null;
    try {
      this.parent.active++;
      await this.buildSuite;
      this.startTime = now();
      if (this.parent.hooks.before.length > 0) await this.parent.runHook('before', this.parent.getRunArgs());
      await this.runHook('before', hookArgs);
      stop = stopTest(this.timeout);
      const subtests = this.skipped || this.error ? [] : this.subtests;
      await Promise.race([Promise.all(subtests.map((t) => t.start())), stop.promise]);
      await after();
      this.pass();
    } catch (err) {
      try {
        await after();
      } catch {
        // The suite is already failing.
      }
      this.fail(isTestFailure(err) ? err : new TestFailure(err, 'testCodeFailure'));
    } finally {
      stop?.dispose();
    }
    this.postRun();
  }
}

module.exports = { Test, Suite, TestHook, TestFailure };
