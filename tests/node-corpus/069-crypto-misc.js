// getHashes includes the common ones; timingSafeEqual; an unknown algorithm.
const crypto = require('crypto');
const hashes = crypto.getHashes();
console.log(['md5', 'sha1', 'sha256', 'sha512'].every((h) => hashes.includes(h)));
console.log(crypto.timingSafeEqual(Buffer.from('abc'), Buffer.from('abc')), crypto.timingSafeEqual(Buffer.from('abc'), Buffer.from('abd')));
try {
  crypto.createHash('nope-hash');
} catch (e) {
  console.log(e.message);
}
console.log(crypto.createHash('sha256').update(new Uint8Array([1, 2, 3])).digest('hex'));
