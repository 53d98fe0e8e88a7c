// inspect: circular refs, custom inspect, getters, typed arrays, Buffers, boxed, long strings.
const util = require('util');
const a = { name: 'a' }; a.self = a; a.list = [a];
console.log(util.inspect(a));
class Money { [util.inspect.custom]() { return 'Money<5>'; } }
console.log(util.inspect({ m: new Money() }));
console.log(util.inspect(new Uint8Array([1, 2, 3])), util.inspect(new Float64Array(2)));
console.log(util.inspect(Buffer.from('hi')), util.inspect(new ArrayBuffer(3)));
console.log(util.inspect({ get x() { return 1; } }, { getters: true }));
const long = { text: 'word '.repeat(20).trim() };
console.log(util.inspect(long));
console.log(util.inspect(new Error('msg')).split('\n')[0]);
const e = new TypeError('typed'); e.code = 'E_X';
console.log(util.inspect(e).split('\n')[0], util.inspect(e).includes("code: 'E_X'"));
console.log(util.inspect(Object.assign(Object.create({ inherited: 1 }), { own: 2 })));
