// process.stdin, process.stdout and process.stderr as stream.Readable/Writable.
// Output is written at once and unbuffered (each write() reaches wasi:cli before it
// returns). Stdin is read in 64 KiB chunks, one per turn of the event loop, so that
// timers still get their turn; the host hands the guest all of stdin up front.
'use strict';

const { Buffer } = require('buffer');
const { Readable, Writable } = require('stream');

function createInput() {
  // Like Node's stdin from a file (the host hands over all of stdin up front): no
  // autoDestroy, so 'end' comes but 'close' does not.
  const stdin = new Readable({
    highWaterMark: 65536,
    autoDestroy: false,
    read() {
      setImmediate(() => {
        const ab = native.stdinRead(65536);
        this.push(ab === null ? null : Buffer.from(ab));
      });
    },
  });
  stdin.fd = 0;
  stdin.setRawMode = () => stdin;
  stdin.ref = () => stdin;
  stdin.unref = () => stdin;
  return stdin;
}

function writeOut(fd, chunk, encoding) {
  if (typeof chunk === 'string') {
    if (encoding && encoding !== 'buffer' && !/^utf-?8$/i.test(encoding)) {
      chunk = new Uint8Array(native.encode(chunk, encoding));
    }
  } else {
    chunk = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  }
  native.write(fd, chunk);
}

function createOutput(fd) {
  const stream = new Writable({
    decodeStrings: false,
    write(chunk, encoding, cb) {
      writeOut(fd, chunk, encoding);
      cb();
    },
    writev(chunks, cb) {
      for (const { chunk, encoding } of chunks) writeOut(fd, chunk, encoding);
      cb();
    },
  });
  // Like Node's stdio: end() and destroy() do not close the run's output.
  stream._destroy = (err, cb) => cb(err);
  stream._isStdio = true;
  stream.fd = fd;
  stream.rows = 24;
  stream.getWindowSize = () => [80, 24];
  stream.hasColors = () => false;
  stream.getColorDepth = () => 1;
  stream.ref = () => stream;
  stream.unref = () => stream;
  return stream;
}

module.exports = { create: (fd) => (fd === 0 ? createInput() : createOutput(fd)) };
