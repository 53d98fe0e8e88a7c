import zlib from 'node:zlib';
import fs from 'node:fs';
const src = JSON.parse(fs.readFileSync(0, 'utf8'));
for (const [k, d] of [['gzip', 'gunzip'], ['deflate', 'inflate'], ['deflateRaw', 'inflateRaw'], ['brotliCompress', 'brotliDecompress']]) {
  console.log(k, zlib[d + 'Sync'](Buffer.from(src[k], 'base64')).toString() === src.text);
}
