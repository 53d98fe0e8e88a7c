// A Transform upper-cases text; pipeline from Readable.from to a Writable.
const { Transform, Writable, Readable, pipeline } = require('stream');
const upper = new Transform({
  transform(chunk, _enc, cb) { cb(null, chunk.toString().toUpperCase()); },
  flush(cb) { this.push('[flushed]'); cb(); },
});
const out = [];
const sink = new Writable({ write(c, _e, cb) { out.push(c.toString()); cb(); } });
pipeline(Readable.from(['ab', 'cd', 'ef']), upper, sink, (err) => {
  console.log('done', err, JSON.stringify(out));
});
