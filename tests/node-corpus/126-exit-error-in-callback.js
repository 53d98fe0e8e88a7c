// A throw inside a timer callback: earlier output stays, exit 1, later timers never run.
setTimeout(() => console.log('first timer'), 1);
setTimeout(() => { throw new RangeError('in a timer'); }, 5);
setTimeout(() => console.log('never: later timer'), 50);
