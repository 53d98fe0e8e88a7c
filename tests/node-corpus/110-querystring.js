// querystring: parse, stringify, escape, custom separators.
const qs = require('querystring');
console.log(JSON.stringify(qs.parse('a=1&b=2&a=3&c&d=x%20y+z')));
console.log(qs.stringify({ a: [1, 2], b: 'x y', c: '', d: true, e: null }));
console.log(qs.stringify({ k: 'v', w: 'x' }, ';', ':'), JSON.stringify(qs.parse('k:v;w:x', ';', ':')));
console.log(qs.escape('a b&c/é'), qs.unescape('%41%20b'), qs.decode === qs.parse);
