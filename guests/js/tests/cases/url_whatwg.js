const cases = [
  ['http://EXAMPLE.com:80/a/./b/../c'], ['https://u:p@a.com:443/x?y=1#z'], ['http://0x7f.1/'], ['http://192.168.0.257/'],
  ['http://[::1]:8080/'], ['http://[2001:db8:0:0:1:0:0:1]/'], ['http://[::ffff:1.2.3.4]/'], ['http://münchen.de/'],
  ['../x?q#h', 'http://a/b/c/d'], ['//other/p', 'https://a/b'], ['?q', 'http://a/b?old#f'], ['#f', 'http://a/b?q'],
  ['file:///C:/a/../..'], ['file://localhost/x'], ['file:///tmp/a b'], ['sc:opaque path?q'], ['mailto:a@b.c'],
  ['http://a/%2e%2E/b'], ['http://a/b c/é?x y=é#f g'], ['HTTP://a\\b\\c'], ['ws://a:80/'], ['wss://a:443'],
  ['javascript:alert(1)'], ['blob:https://a.com/uuid'], ['data:text/plain,hi'], ['x', 'file:///a/b'],
  ['http://a:65536/'], ['http://a b/'], ['http:'], ['http://1.2.3.4.5/'], ['http://[1::2::3]/'], ['  http://trim/  '],
  ['http://a/\t\nb'], ['non-spec://host:99/p/../q'], ['non-spec:/p/./q'], ['http://@a/'], ['http://:@a/'],
];
for (const [input, base] of cases) {
  try {
    const u = new URL(input, base);
    console.log(JSON.stringify([u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash]));
  } catch (e) {
    console.log('fail', JSON.stringify(input), e.code, e.message);
  }
}
console.log(URL.canParse('x'), URL.canParse('x', 'http://a'), JSON.stringify({ u: new URL('http://a/b') }), String(new URL('http://a')));
const u = new URL('http://a.com/p?x=1');
u.protocol = 'https'; u.username = 'me'; u.password = 'p@ss'; u.hostname = 'B.com'; u.port = '8443'; u.pathname = 'a b/../c'; u.hash = 'frag';
console.log(u.href);
u.port = '443'; u.host = 'c.com:99'; u.search = '?y=2&z=é'; console.log(u.href, u.searchParams.get('z'));
u.searchParams.append('w', 'a b'); console.log(u.search, u.href);
u.search = ''; console.log(u.href, [...u.searchParams]);
u.href = 'http://new/?k=v'; console.log(u.searchParams.get('k'));
u.protocol = 'foo'; console.log(u.protocol); u.port = 'abc'; console.log(u.port);
try { u.href = 'bad' } catch (e) { console.log(e.code) }
const sp = new URLSearchParams({ a: '1', b: 'x y' }); sp.append('a', '2'); sp.set('c', '~!*()\''); sp.sort();
console.log(sp.toString(), sp.getAll('a'), sp.has('a', '2'), sp.size, [...sp.keys()]);
sp.delete('a', '1'); console.log(sp + '', new URLSearchParams([['x', '1'], ['y', '2']]).toString(), new URLSearchParams('?a=b+c%20d&=e&f').toString());
try { new URLSearchParams([['a']]) } catch (e) { console.log(e.name, e.code, e.message) }
console.log(sp, new URLSearchParams(), Object.prototype.toString.call(u));
console.log(new URL('http://a/b?c=d#e'));
