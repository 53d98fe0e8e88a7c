// createHmac with string and Buffer keys.
const crypto = require('crypto');
console.log(crypto.createHmac('sha256', 'secret').update('message').digest('hex'));
console.log(crypto.createHmac('sha1', Buffer.from('key')).update('The quick brown fox jumps over the lazy dog').digest('hex'));
console.log(crypto.createHmac('md5', '').update('').digest('hex'));
console.log(crypto.createHmac('sha512', 'k'.repeat(200)).update('long key').digest('base64'));
