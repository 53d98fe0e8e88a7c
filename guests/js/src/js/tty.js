// node:tty. Runs have no terminal: every fd is not a TTY, and the stream classes
// exist (for `instanceof` checks and subclasses) but cannot be opened on one.
'use strict';

function notATerminal(fd) {
  const err = new Error(`ERR_NOT_SUPPORTED_IN_SANDBOX: fd ${fd} is not a terminal: runs here have none`);
  err.code = 'ERR_NOT_SUPPORTED_IN_SANDBOX';
  return err;
}

class ReadStream {
  constructor(fd) { throw notATerminal(fd); }
}
class WriteStream {
  constructor(fd) { throw notATerminal(fd); }
}

module.exports = {
  isatty: () => false,
  ReadStream,
  WriteStream,
};
