// StringDecoder keeps partial multi-byte characters between writes.
const { StringDecoder } = require('string_decoder');
const euro = Buffer.from('€');
const d = new StringDecoder('utf8');
console.log(JSON.stringify(d.write(euro.subarray(0, 1))), JSON.stringify(d.write(euro.subarray(1))));
console.log(JSON.stringify(d.write(Buffer.from([0xe2, 0x82]))), JSON.stringify(d.end()));
const h = new StringDecoder('hex');
console.log(h.write(Buffer.from('ab')), h.end(Buffer.from('c')));
const b64 = new StringDecoder('base64');
console.log(b64.write(Buffer.from('abcd')), b64.end());
const u16 = new StringDecoder('utf16le');
console.log(u16.write(Buffer.from([0x61, 0x00, 0x62])), u16.end(Buffer.from([0x00])));
