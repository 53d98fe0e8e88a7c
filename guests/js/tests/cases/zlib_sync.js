import zlib from 'node:zlib';
const text = 'hello hello hello ' + 'abcdefghij'.repeat(50);
for (const [c, d] of [['gzipSync', 'gunzipSync'], ['deflateSync', 'inflateSync'], ['deflateRawSync', 'inflateRawSync'], ['brotliCompressSync', 'brotliDecompressSync'], ['gzipSync', 'unzipSync'], ['deflateSync', 'unzipSync']]) {
  const packed = zlib[c](text, { level: 9 });
  console.log(c, d, packed.length < text.length, zlib[d](packed).toString() === text);
}
console.log(zlib.gunzipSync(zlib.gzipSync(Buffer.alloc(0))).length, zlib.inflateSync(zlib.deflateSync(new Uint8Array([1, 2, 3]))));
console.log(zlib.brotliCompressSync('x', { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }).length > 0);
const g = zlib.gzipSync('hello hello hello');
for (const f of [() => zlib.gunzipSync(Buffer.from('garbage!')), () => zlib.inflateSync(Buffer.from('garbage!')), () => zlib.gunzipSync(g.subarray(0, 10)), () => zlib.inflateSync(Buffer.alloc(0)), () => zlib.brotliDecompressSync(Buffer.from('garbage!')), () => zlib.brotliDecompressSync(zlib.brotliCompressSync('hello').subarray(0, 3)), () => zlib.inflateRawSync(Buffer.from([0xff, 0xff, 0xff])), () => zlib.gzipSync(5), () => zlib.deflateSync('x', { level: 12 })]) {
  try { console.log(f()) } catch (e) { console.log(e.name, e.code, e.errno, e.message, Object.keys(e)) }
}
console.log(zlib.crc32('hello'), zlib.crc32('world', zlib.crc32('hello ')), zlib.crc32(Buffer.from('hello world')));
console.log(zlib.constants.Z_BEST_COMPRESSION, zlib.constants.BROTLI_PARAM_QUALITY, Object.keys(zlib.constants).length, zlib.codes.Z_DATA_ERROR, zlib.codes[-3]);
zlib.gzip('abc', (err, buf) => {
  console.log('cb', err, zlib.gunzipSync(buf).toString());
  zlib.gunzip(Buffer.from('bad'), (err, res) => {
    console.log('cb err', err.message, err.code, res);
    zlib.deflate('abc', { level: 1 }, (err, buf) => console.log('cb opts', err, zlib.inflateSync(buf).toString()));
  });
});
console.log('sync after');
