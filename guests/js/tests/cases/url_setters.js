const out = [];
const sets = [['protocol', 'file'], ['protocol', 'ftp'], ['host', 'x.com:21'], ['hostname', 'a:b'], ['port', '99999'], ['port', '12ab'], ['pathname', '/a/%2e%2E/b'], ['pathname', ''], ['search', '#?x'], ['hash', '##'], ['username', 'a b:c'], ['password', ''], ['host', ''], ['href', 'file:///C|/x']];
for (const base of ['http://u:p@a.com:8080/p?q#h', 'file:///tmp/x', 'foo://h/p', 'data:text,x']) {
  for (const [k, v] of sets) {
    const u = new URL(base);
    try { u[k] = v; out.push(`${base} ${k}=${v} -> ${u.href}`); } catch (e) { out.push(`${base} ${k}=${v} !! ${e.code}`); }
  }
}
for (const s of ['http://[::]/', 'http://[0:0:0:0:0:0:0:1]/', 'http://[1:0:0:2:0:0:0:3]/', 'http://0/', 'http://4294967295/', 'http://4294967296/', 'http://1.2.3.09/', 'http://0x100.1/', 'http://a.b.c.1./', 'http://%41.com/', 'http://a%2Fb/', 'http://xn--nxasmq6b.com/', 'http://EXAMPLE.COM./', 'https://faß.de/', 'http://a.com/?a=b&c=%zz', 'http://a/b/../../../c', 'file:c:\\x\\y', 'file://host/share/x', '\\\\server\\x', 'non-special://[1:2::3]:80/', 'non-special://a b/', 'sc://ñ/', 'http://a/ b?c d#e f', 'http://a/\u{1F600}?\u{1F600}#\u{1F600}']) {
  try { out.push(new URL(s, 'http://base/dir/f').href) } catch (e) { out.push('!! ' + s) }
}
console.log(out.join('\n'));
