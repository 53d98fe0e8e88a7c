// on/once/off/emit, listener order, and emit's return value.
const EventEmitter = require('events');
const e = new EventEmitter();
const log = (tag) => (...args) => console.log(tag, ...args);
e.on('x', log('first'));
e.once('x', log('once'));
e.prependListener('x', log('prepended'));
console.log(e.emit('x', 1, 2));
console.log(e.emit('x', 3));
console.log(e.emit('nobody'));
console.log(e.listenerCount('x'), e.eventNames());
const h = log('removed');
e.on('y', h);
e.off('y', h);
console.log(e.listenerCount('y'), e.emit('y'));
