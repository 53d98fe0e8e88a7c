// gzipSync/gunzipSync, deflate/inflate, raw: round trips of fixed text.
const zlib = require('zlib');
const text = 'the quick brown fox '.repeat(50);
const pairs = [['gzipSync', 'gunzipSync'], ['deflateSync', 'inflateSync'], ['deflateRawSync', 'inflateRawSync']];
for (const [c, d] of pairs) {
  const packed = zlib[c](text);
  const back = zlib[d](packed).toString();
  console.log(c, packed.length < text.length, back === text, back.length);
}
console.log(zlib.unzipSync(zlib.gzipSync('unzip gz')).toString(), zlib.unzipSync(zlib.deflateSync('unzip zlib')).toString());
const gz = zlib.gzipSync('x');
console.log(gz[0].toString(16), gz[1].toString(16));
