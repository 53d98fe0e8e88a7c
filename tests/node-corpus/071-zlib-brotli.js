// Brotli round trip, and a level option on gzip.
const zlib = require('zlib');
const text = JSON.stringify({ list: Array.from({ length: 200 }, (_, i) => ({ i, even: i % 2 === 0 })) });
const br = zlib.brotliCompressSync(text);
console.log(br.length < text.length, zlib.brotliDecompressSync(br).toString() === text, text.length);
const fast = zlib.gzipSync(text, { level: 1 });
const best = zlib.gzipSync(text, { level: 9 });
console.log(zlib.gunzipSync(fast).length, zlib.gunzipSync(best).length, best.length <= fast.length);
console.log(zlib.constants.Z_BEST_COMPRESSION, zlib.constants.BROTLI_PARAM_QUALITY);
