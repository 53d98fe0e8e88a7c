// Buffer: from/alloc/concat, encodings, slice sharing memory, compare.
const a = Buffer.from('héllo');
console.log(a.length, a.toString('hex'), a.toString('base64'), a.toString('latin1'));
console.log(Buffer.from('68656c6c6f', 'hex').toString(), Buffer.from('aGk=', 'base64').toString(), Buffer.from('aGk', 'base64url').toString());
console.log(Buffer.alloc(3), Buffer.alloc(3, 'ab'), Buffer.alloc(2, 255));
const c = Buffer.concat([Buffer.from('ab'), Buffer.from('cd')], 3);
console.log(c.toString(), c.length);
const s = a.subarray(1, 3);
s[0] = 0x41;
console.log(a.toString('hex'), Buffer.compare(Buffer.from('a'), Buffer.from('b')), Buffer.from('x').equals(Buffer.from('x')));
console.log(Buffer.byteLength('héllo'), Buffer.byteLength('aGk=', 'base64'), Buffer.isEncoding('utf-8'), Buffer.isEncoding('nope'));
