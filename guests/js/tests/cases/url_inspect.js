import util from 'node:util';
console.log({ u: new URL('http://a/?x=1'), list: [new URL('file:///x')] });
console.log(util.inspect(new URL('http://a'), { depth: 0 }));
console.log(util.inspect({ a: { b: new URL('http://a') } }, { depth: 1 }));
console.log(new URLSearchParams('a=1&b=2'), [new URLSearchParams('x=y')]);
console.log(new URL('http://a').searchParams === new URL('http://a').searchParams);
