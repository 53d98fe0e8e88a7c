// JSON.stringify/parse: indentation, replacer, reviver, toJSON, errors.
const o = { b: 1, a: [1, { c: undefined, d: null }], f() {}, s: Symbol('x'), n: NaN, date: new Date(0) };
console.log(JSON.stringify(o));
console.log(JSON.stringify(o, null, 2));
console.log(JSON.stringify(o, ['a', 'b']), JSON.stringify({ x: 1, y: 2 }, (k, v) => (k === 'y' ? undefined : v)));
console.log(JSON.stringify({ toJSON() { return 'custom'; } }), JSON.stringify('\u2028\n"'), JSON.stringify([undefined, () => {}]));
console.log(JSON.parse('{"a":[1,2,{"b":"c"}]}', (k, v) => (typeof v === 'number' ? v * 10 : v)).a);
try {
  JSON.parse('{bad json}');
} catch (e) {
  console.log(e.name, e.message);
}
try {
  const c = {}; c.c = c; JSON.stringify(c);
} catch (e) {
  console.log(e.name, e.message.split('\n')[0]);
}
try {
  JSON.stringify({ n: 1n });
} catch (e) {
  console.log(e.name, e.message);
}
