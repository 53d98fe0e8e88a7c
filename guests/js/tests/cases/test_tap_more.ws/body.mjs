import test from 'node:test';
test('p', (t) => { t.test('a', () => {}); t.test('b', async () => { await new Promise(r => setTimeout(r, 5)); }); t.test('c', () => {}); });
test('throws str', () => { throw 'str'; });
test('timeout', { timeout: 10 }, async () => { await new Promise(r => setTimeout(r, 100)); });
test('only', { only: true }, () => {});
test(async function named() {});
test('cb+promise', async (t, done) => { done(); });
test('cb err', (t, done) => { done(new Error('cberr')); });
test('t.name', (t) => { t.diagnostic(t.name + '|' + t.fullName); });
test('multi\nline # name', () => {});
test('fail obj', () => { require_missing; });
test.before(() => console.log('root before'));
test.after(() => console.log('root after'));
test('plan', (t) => { t.plan(2); t.assert.ok(true); t.assert.strictEqual(1, 1); });
test('plan short', (t) => { t.plan(2); t.assert.ok(true); });
test.skip('skipped via test.skip', () => {});
test.todo('todo via test.todo', () => {});
test.describe('suite with failure', () => {
  test.it('inner fails', () => { throw new RangeError('out'); });
  test.it('inner ok', () => {});
});
test('hook fails', async (t) => {
  t.beforeEach(() => { throw new Error('hook boom'); });
  await t.test('sub', () => {});
});
test('deep yaml', () => { const assert = { a: 1 }; throw Object.assign(new Error('with props'), { extra: [1, 'two'], nested: { k: null } }); });
