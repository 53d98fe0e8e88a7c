// util.inspect of classes, functions, Maps, Sets, Dates, RegExps, errors.
const { inspect } = require('util');
class Point { constructor() { this.x = 1; this.y = 2; } }
class Empty {}
console.log(inspect(new Point()), inspect(new Empty()), inspect(Object.create(null)));
console.log(inspect(function foo() {}), inspect(() => {}), inspect(class A {}), inspect(async function af() {}), inspect(function* g() {}));
console.log(inspect(new Map([['a', 1], [{ k: 1 }, [2]]])), inspect(new Set([1, 'two'])));
console.log(inspect(new Date(0)), inspect(/ab+c/gi), inspect(new Date(NaN)));
console.log(inspect(new WeakMap()), inspect(Promise.resolve(3)), inspect(Promise.reject(new Error('x')).catch(() => {}) && 0));
console.log(inspect(new Number(3)), inspect(new String('s')), inspect(Object(Symbol('b'))));
const o = { f() {}, get g() { return 1; }, set s(v) {} };
console.log(inspect(o));
const fn = function withProps() {}; fn.extra = 1;
console.log(inspect(fn));
