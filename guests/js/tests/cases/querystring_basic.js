import qs from 'node:querystring';
console.log(qs.parse('a=1&b=2&a=3&c&d=&e=x+y%20z&%E2%82%AC=%zz'));
console.log(qs.stringify({ a: [1, 2], b: 'x y', c: true, d: null, e: undefined, f: {}, g: NaN, h: 'é€' }));
console.log(qs.escape('a b&c/é'), qs.unescape('a%20b%zz+c'), qs.parse('a:1;b:2', ';', ':'));
console.log(qs.stringify({ a: 1 }, ';', ':'), qs.decode === qs.parse, qs.encode === qs.stringify);
console.log(qs.parse('a=1&a=2&a=3', null, null, { maxKeys: 2 }));
