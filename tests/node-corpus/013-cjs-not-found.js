// A missing module: MODULE_NOT_FOUND, with the message's first line.
try {
  require('./fixtures/cjs/does-not-exist');
} catch (e) {
  console.log(e.code, e instanceof Error);
  console.log(e.message.split('\n')[0].replace(/'.*does-not-exist'/, "'<missing>'"));
}
try {
  require('no-such-package-anywhere');
} catch (e) {
  console.log(e.code, e.message.split('\n')[0]);
}
