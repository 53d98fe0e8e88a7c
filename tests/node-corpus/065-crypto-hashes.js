// createHash over fixed inputs: md5, sha1, sha256, sha512, encodings, update chaining.
const crypto = require('crypto');
for (const alg of ['md5', 'sha1', 'sha256', 'sha384', 'sha512']) {
  console.log(alg, crypto.createHash(alg).update('hello world').digest('hex'));
}
console.log(crypto.createHash('sha256').update('hello ').update(Buffer.from('world')).digest('base64'));
console.log(crypto.createHash('sha256').update('').digest('hex'));
console.log(crypto.createHash('sha1').update('é', 'utf8').digest('base64url'));
console.log(crypto.createHash('md5').update('latin1 é', 'latin1').digest().length);
