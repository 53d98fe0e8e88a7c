// `this` in listeners, rawListeners of a once wrapper, removeAllListeners.
const EventEmitter = require('events');
const e = new EventEmitter();
e.on('a', function () { console.log('this is emitter:', this === e); });
e.on('a', () => console.log('arrow listener'));
e.once('b', function named() {});
console.log(e.listeners('b')[0].name, typeof e.rawListeners('b')[0].listener);
e.emit('a');
e.removeAllListeners('a');
console.log(e.listenerCount('a'), e.listenerCount('b'));
e.removeAllListeners();
console.log(e.eventNames().length);
e.setMaxListeners(1);
console.log(e.getMaxListeners());
