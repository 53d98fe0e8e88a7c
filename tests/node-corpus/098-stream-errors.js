// destroy(err) emits 'error' then 'close'; writing after end is an error.
const { Readable, Writable } = require('stream');
const r = new Readable({ read() {} });
r.on('error', (e) => console.log('error', e.message));
r.on('close', () => {
  console.log('close', r.destroyed);
  const w = new Writable({ write(_c, _e, cb) { cb(); } });
  w.on('error', (e) => console.log('write error', e.code));
  w.end('last');
  w.write('after end');
});
r.destroy(new Error('destroyed on purpose'));
