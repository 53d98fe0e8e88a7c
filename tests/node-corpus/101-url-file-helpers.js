// node:url helpers: fileURLToPath, pathToFileURL, format, legacy parse.
const url = require('url');
console.log(url.fileURLToPath('file:///a/b%20c.txt'), url.pathToFileURL('/x/y z#?.txt').href);
console.log(url.format(new URL('http://u:p@h.test/p?q#f'), { auth: false, search: false, fragment: false }));
const legacy = url.parse('http://user@host.test:81/p/a?x=1#h', true);
console.log(legacy.hostname, legacy.port, legacy.pathname, JSON.stringify(legacy.query), legacy.hash);
console.log(url.resolve('http://a/b/c', '../d'), url.URL === URL);
try {
  url.fileURLToPath('http://x/y');
} catch (e) {
  console.log(e.code);
}
