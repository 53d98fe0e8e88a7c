// Buffer integer and float reads/writes in both byte orders.
const b = Buffer.alloc(16);
b.writeUInt16LE(0x1234, 0);
b.writeUInt16BE(0x1234, 2);
b.writeInt32LE(-2, 4);
b.writeDoubleBE(1.5, 8);
console.log(b.toString('hex'));
console.log(b.readUInt16LE(0).toString(16), b.readUInt16BE(2).toString(16), b.readInt32LE(4), b.readDoubleBE(8));
console.log(b.readUInt8(0), b.readInt8(4), b.readUInt32BE(4));
const big = Buffer.alloc(8);
big.writeBigUInt64LE(2n ** 63n + 5n);
console.log(big.readBigUInt64LE(), big.readBigInt64LE());
try {
  b.readUInt32LE(14);
} catch (e) {
  console.log(e.code, e.name);
}
