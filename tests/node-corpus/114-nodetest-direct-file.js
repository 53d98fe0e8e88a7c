// A file using node:test run directly with node: it reports and exits 0.
const { test, describe, it, before, after, beforeEach } = require('node:test');
const assert = require('node:assert');
let n = 0;
describe('hooks', () => {
  before(() => { n = 10; });
  beforeEach(() => { n++; });
  after(() => {});
  it('first', () => assert.strictEqual(n, 11));
  it('second', () => assert.strictEqual(n, 12));
});
test('top level', () => assert.ok(true));
