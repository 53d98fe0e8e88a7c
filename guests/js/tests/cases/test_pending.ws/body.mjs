import test from 'node:test';
test('hangs', async () => { await new Promise(() => {}); });
test('after hang', () => {});
