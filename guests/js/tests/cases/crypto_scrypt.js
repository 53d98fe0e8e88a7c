import crypto from 'node:crypto';
console.log(crypto.scryptSync('pw', 'salt', 32).toString('hex'));
console.log(crypto.scryptSync('pw', 'salt', 16, { N: 1024, r: 4, p: 2 }).toString('hex'));
console.log(crypto.scryptSync(Buffer.from('pw'), 'salt', 16, { cost: 16, blockSize: 1, parallelization: 1 }).toString('hex'));
for (const o of [{ N: 1000 }, { N: 2 ** 20 }]) {
  try { crypto.scryptSync('a', 'b', 8, o) } catch (e) { console.log(e.name, e.code, e.message) }
}
crypto.scrypt('a', 'b', 8, (err, key) => {
  console.log('cb', err, key.toString('hex'));
  try { crypto.scrypt('a', 'b', 8, { N: 1000 }, () => {}) } catch (e) { console.log('sync throw', e.code) }
});
