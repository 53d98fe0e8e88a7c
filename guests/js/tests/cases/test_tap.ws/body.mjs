import test, { describe, it, before, after, beforeEach, afterEach, mock } from 'node:test';
import assert from 'node:assert';

test('passes', () => {});
test('fails', () => { assert.strictEqual(1, 2); });
test('deep', () => { assert.deepStrictEqual({a: 1}, {a: 2}); });
test('throws plain', () => { throw new TypeError('bad thing'); });
test('skip me', { skip: true }, () => {});
test('skip msg', { skip: 'not now' }, () => {});
test('todo', { todo: true }, () => {});
test('todo fail', { todo: 'later' }, () => { throw new Error('x'); });
test('with t.skip', (t) => { t.skip('inside'); });
test('async', async (t) => { await new Promise(r => setTimeout(r, 5)); t.diagnostic('hello diag'); });
test('done cb', (t, done) => { setTimeout(done, 1); });
test('parent', async (t) => {
  await t.test('child 1', () => {});
  await t.test('child 2', () => { assert.ok(false); });
});
describe('suite A', () => {
  before(() => console.log('before'));
  beforeEach(() => console.log('beforeEach'));
  afterEach(() => console.log('afterEach'));
  after(() => console.log('after'));
  it('one', () => {});
  it('two', () => {});
  describe('nested', () => { it('three', () => {}); });
});
test('mock', () => { const f = mock.fn((a) => a * 2); f(2); f(3); assert.strictEqual(f.mock.calls.length, 2); assert.deepStrictEqual(f.mock.calls[1].arguments, [3]); });

