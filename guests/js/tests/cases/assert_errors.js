// AssertionError's fields and messages for each assert function (no stacks shown).
import assert from 'node:assert';
const cases = [
  () => assert.strictEqual(1, 2),
  () => assert.strictEqual('a\nb', 'a\nc'),
  () => assert.equal(1, 2),
  () => assert.notStrictEqual(1, 1),
  () => assert.deepStrictEqual({ a: 1, b: [1, 2] }, { a: 1, b: [1, 3] }),
  () => assert.deepEqual({ a: 1 }, { a: 2 }),
  () => assert.deepStrictEqual({ a: 1 }, { a: 1, b: 2 }),
  () => assert.notDeepStrictEqual({ a: 1 }, { a: 1 }),
  () => assert.ok(false, 'custom'),
  () => assert.ok(),
  () => assert.throws(() => {}),
  () => assert.throws(() => { throw new Error('x'); }, /y/),
  () => assert.throws(() => { throw new Error('x'); }, { message: 'y' }),
  () => assert.doesNotThrow(() => { throw new Error('x'); }),
  () => assert.match('abc', /x/),
  () => assert.doesNotMatch('abc', /b/),
  () => assert.fail(),
  () => assert.fail('boom'),
  () => assert.fail(new TypeError('own error')),
  () => assert.ifError(new Error('e')),
  () => assert.ifError('str'),
  () => assert.ifError(null),
  () => assert.strictEqual(1, 2, 'my msg'),
  () => assert.deepStrictEqual(new Map([[1, 2]]), new Map([[1, 3]])),
  () => assert.deepStrictEqual(new Set([1]), new Set([2])),
  () => assert.strictEqual({ a: 1 }, { a: 1 }),
  () => assert.deepStrictEqual([1], ['1']),
  () => assert.deepStrictEqual(1, '1'),
  () => assert.equal(null, undefined),
  () => assert.notEqual(1, '1'),
  () => assert.deepStrictEqual([1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 4, 5, 6, 7, 9]),
  () => assert.deepStrictEqual({ x: 'a'.repeat(40) }, { x: 'a'.repeat(39) + 'b' }),
];
for (const c of cases) {
  try {
    c();
    console.log('passed');
  } catch (e) {
    console.log('---', e.name, e.code, e.operator, e.generatedMessage, e instanceof assert.AssertionError);
    console.log(e.message);
    if (e instanceof assert.AssertionError) console.log(typeof e.actual, typeof e.expected, String(e).split('\n')[0]);
  }
}
