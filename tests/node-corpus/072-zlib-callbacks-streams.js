// Callback and stream forms: gzip → gunzip through pipeline.
const zlib = require('zlib');
const { pipeline, Readable, Writable } = require('stream');
zlib.gzip('callback form', (err, buf) => {
  zlib.gunzip(buf, (err2, out) => {
    console.log('callback', err, err2, out.toString());
    const parts = [];
    pipeline(
      Readable.from(['line 1\n', 'line 2\n', 'line 3\n']),
      zlib.createGzip(),
      zlib.createGunzip(),
      new Writable({ write(c, _e, cb) { parts.push(c); cb(); } }),
      (err3) => console.log('pipeline', err3, JSON.stringify(Buffer.concat(parts).toString())),
    );
  });
});
