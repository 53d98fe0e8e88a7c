import url from 'node:url';
console.log(url.parse('https://user:pw@Example.COM:8080/a/b?x=1&y=2#frag'));
console.log(url.parse('/a/b?x=1', true));
console.log(url.parse('//host/p', false, true));
console.log(url.parse('mailto:me@x.com'), url.parse('a b/c d'));
console.log(url.format({ protocol: 'http', hostname: 'a.com', port: 80, pathname: 'x', query: { a: 1, b: [2, 3] } }));
console.log(url.format(new URL('http://u:p@a.com/x?y#z'), { auth: false, search: false, fragment: false }));
console.log(url.resolve('/one/two/three', 'four'), url.resolve('http://example.com/', '/one'), url.resolve('http://example.com/one', '/two'), url.resolve('http://a.com/b/c', '../d'), url.resolve('a/b', 'c'));
console.log(url.format(url.parse('http://a.com/x?y=1#h')));
