import crypto, { createHash, createHmac, randomBytes } from 'node:crypto';
for (const alg of ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'SHA256', 'sha512-256']) {
  console.log(alg, createHash(alg).update('hello ').update(Buffer.from('world')).digest('hex'));
  console.log(alg, createHmac(alg, 'key').update('data').digest('base64'));
}
const h = createHash('sha256').update('616263', 'hex');
const c = h.copy();
console.log(h.digest('base64url'), c.update('d').digest('latin1').length, createHash('sha1').update('x').digest().constructor.name);
console.log(createHmac('sha256', Buffer.alloc(200, 1)).update(new Uint16Array([1, 2, 3])).digest('hex'));
console.log(crypto.hash('sha1', 'abc'), crypto.hash('md5', 'abc', 'base64'));
for (const f of [() => createHash('foo'), () => createHmac('foo', 'k'), () => { const x = createHash('sha1'); x.digest(); x.update('x') }, () => { const x = createHash('sha1'); x.digest(); x.digest() }, () => createHash('sha1').update(5), () => crypto.timingSafeEqual(Buffer.from('a'), Buffer.from('ab')), () => crypto.randomInt(5, 2), () => crypto.randomBytes(-1)]) {
  try { f(); console.log('ok') } catch (e) { console.log(e.name, e.code, e.message, Object.keys(e)) }
}
const hm = createHmac('sha1', 'k'); hm.digest(); console.log(hm.digest('hex') === '');
console.log(randomBytes(16).length, crypto.randomFillSync(new Uint8Array(8), 2, 3).length, crypto.timingSafeEqual(Buffer.from('ab'), Buffer.from('ab')));
const r = crypto.randomInt(10); console.log(r >= 0 && r < 10, /^[0-9a-f-]{36}$/.test(crypto.randomUUID()));
console.log(crypto.pbkdf2Sync('pw', 'salt', 1000, 32, 'sha256').toString('hex'), crypto.pbkdf2Sync('pw', 'salt', 1, 70, 'sha1').toString('hex'));
console.log(Buffer.from(crypto.hkdfSync('sha256', 'key', 'salt', 'info', 42)).toString('hex'));
console.log(crypto.webcrypto === globalThis.crypto, crypto.subtle === globalThis.crypto.subtle);
const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode('abc'));
console.log(d instanceof ArrayBuffer, Buffer.from(d).toString('hex'));
console.log(Buffer.from(await crypto.subtle.digest({ name: 'sha-512' }, Buffer.from('abc'))).toString('hex'));
try { await crypto.subtle.digest('MD5', Buffer.from('x')) } catch (e) { console.log(e.name, e.message, e.code) }
try { globalThis.crypto.getRandomValues(new Float32Array(1)) } catch (e) { console.log(e.name, e.message, e.code) }
try { globalThis.crypto.getRandomValues(new Uint8Array(65537)) } catch (e) { console.log(e.name, e.message, e.code) }
console.log(Object.prototype.toString.call(globalThis.crypto), Object.prototype.toString.call(crypto.subtle));
crypto.randomBytes(4, (err, buf) => console.log('cb', err, buf.length));
crypto.pbkdf2('a', 'b', 2, 8, 'md5', (err, key) => console.log('pbkdf2 cb', err, key.toString('hex')));
console.log('sync end');
