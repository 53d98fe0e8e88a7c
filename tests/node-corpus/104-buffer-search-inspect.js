// indexOf/includes/fill/swap16, JSON of a Buffer, and inspect of a long one.
const b = Buffer.from('abcabc');
console.log(b.indexOf('c'), b.lastIndexOf('a'), b.includes('bca'), b.indexOf(Buffer.from('x')));
console.log(JSON.stringify(Buffer.from([1, 2, 3])));
console.log(Buffer.from('abcd').swap16().toString(), Buffer.alloc(4).fill('xy').toString());
console.log(Buffer.from(Array.from({ length: 60 }, (_, i) => i)));
console.log(Buffer.from('€').toJSON().data, [...Buffer.from('hi').entries()].join(' '));
console.log(Buffer.from('ab') instanceof Uint8Array, Buffer.poolSize, require('buffer').constants.MAX_LENGTH > 0);
