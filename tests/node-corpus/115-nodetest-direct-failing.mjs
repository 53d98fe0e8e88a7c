// A failing node:test file run directly: exit code 1, counts in the summary.
import test from 'node:test';
import assert from 'node:assert';
test('ok', () => {});
test('bad', () => assert.deepStrictEqual([1, 2], [1, 3]));
test('nested', async (t) => {
  await t.test('inner ok', () => {});
  await t.test('inner bad', () => assert.ok(false));
});
