import crypto from 'node:crypto';
for (const name of ['createCipheriv', 'createSign', 'generateKeyPairSync', 'createDiffieHellman']) {
  try { crypto[name]('aes-128-cbc', Buffer.alloc(16), Buffer.alloc(16)) } catch (e) { console.log(e.code, e.message) }
}
try { await crypto.subtle.importKey('raw', new Uint8Array(16), 'AES-GCM', false, ['encrypt']) } catch (e) { console.log(e.code, e.message) }
