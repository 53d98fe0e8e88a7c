import test from 'node:test';
import assert from 'node:assert';
test('a1', () => {});
test('a2', () => { assert.strictEqual(1, 2); });
