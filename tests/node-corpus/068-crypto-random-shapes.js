// Random values: only their shapes are printed (lengths, formats).
const crypto = require('crypto');
console.log(crypto.randomBytes(16).length, crypto.randomBytes(0).length);
console.log(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID()));
const n = crypto.randomInt(10);
console.log(Number.isInteger(n) && n >= 0 && n < 10);
const arr = crypto.getRandomValues(new Uint32Array(4));
console.log(arr.length, arr.constructor.name);
console.log(typeof globalThis.crypto.subtle, typeof globalThis.crypto.randomUUID);
