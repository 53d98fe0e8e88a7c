// node:assert: error messages and codes of failing assertions.
const assert = require('assert');
const tries = [
  () => assert.strictEqual(1, 2),
  () => assert.deepStrictEqual({ a: 1 }, { a: 1 }),
  () => assert.ok(0),
  () => assert.equal('a', 'b', 'custom message'),
  () => assert.throws(() => {}),
  () => assert.notStrictEqual(1, 1),
  () => assert.match('abc', /x/),
  () => assert.rejects,
];
for (const t of tries) {
  try {
    t();
    console.log('passed');
  } catch (e) {
    console.log(e.name, e.code, e.generatedMessage, JSON.stringify(e.message.split('\n')[0]));
  }
}
