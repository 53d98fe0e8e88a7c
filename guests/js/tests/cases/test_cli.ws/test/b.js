const test = require('node:test');
test.describe('suite b', () => { test.it('b1', () => {}); });
console.log('hello from b');
