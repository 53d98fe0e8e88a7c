// A class extending EventEmitter; newListener and removeListener events.
const EventEmitter = require('node:events');
class Job extends EventEmitter {
  run() {
    this.emit('start', this.name);
    this.emit('done', 42);
  }
}
const j = new Job();
j.name = 'job1';
j.on('newListener', (ev) => console.log('newListener', ev));
j.on('removeListener', (ev) => console.log('removeListener', ev));
j.on('start', (n) => console.log('start', n));
const done = (v) => console.log('done', v);
j.on('done', done);
j.run();
j.removeListener('done', done);
j.run();
console.log(j instanceof EventEmitter, EventEmitter.defaultMaxListeners);
