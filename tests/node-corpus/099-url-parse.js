// WHATWG URL: components, relative resolution, setters, errors.
const u = new URL('https://user:pw@example.com:8080/a/b/../c?x=1&y=two#frag');
console.log(u.href);
console.log(u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, u.origin);
console.log(new URL('../d?q', 'http://h.test/a/b/c').href, new URL('//other.test/p', 'https://h.test').href);
u.pathname = '/new path';
u.port = '443';
console.log(u.href);
try {
  new URL('not a url');
} catch (e) {
  console.log(e.code, e.name, e.message);
}
console.log(URL.canParse ? URL.canParse('http://x') : 'no canParse', JSON.stringify(new URL('http://EXAMPLE.com/%7Efoo')));
console.log(new URL('file:///data/a%20b.txt').pathname, new URL('http://h/ä').pathname);
