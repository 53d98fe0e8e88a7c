// Corrupt input: errors with zlib's codes.
const zlib = require('zlib');
for (const f of ['gunzipSync', 'inflateSync']) {
  try {
    zlib[f](Buffer.from('definitely not compressed'));
  } catch (e) {
    console.log(f, e.code, e.errno, e.message);
  }
}
zlib.gunzip(Buffer.from([0x1f, 0x8b, 8, 0, 0]), (err) => console.log('truncated', err.code));
