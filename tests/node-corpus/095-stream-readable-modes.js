// A custom Readable in paused mode (read()) and object mode; event order.
const { Readable } = require('stream');
let i = 0;
const r = new Readable({
  read() { this.push(i < 3 ? `chunk${i++}` : null); },
});
r.setEncoding('utf8');
r.on('readable', () => {
  let c;
  while ((c = r.read()) !== null) console.log('read', c);
});
r.on('end', () => {
  console.log('end');
  const objs = new Readable({ objectMode: true, read() {} });
  objs.push({ a: 1 });
  objs.push([2]);
  objs.push(null);
  objs.on('data', (o) => console.log('object', JSON.stringify(o)));
  objs.on('end', () => console.log('objects end', objs.readableObjectMode));
});
