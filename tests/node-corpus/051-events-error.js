// An 'error' with no listener throws; with one, it is delivered.
const { EventEmitter } = require('events');
const e = new EventEmitter();
try {
  e.emit('error', new Error('boom'));
} catch (err) {
  console.log('thrown:', err.message);
}
try {
  e.emit('error', 'a string');
} catch (err) {
  console.log('thrown:', err.code, err.message);
}
e.on('error', (err) => console.log('handled:', err.message));
e.emit('error', new Error('second'));
