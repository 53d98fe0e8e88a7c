"""urllib.parse: splitting URLs, query strings, quoting, joining."""
from urllib.parse import (parse_qs, parse_qsl, quote, quote_plus, unquote, unquote_plus, urlencode, urljoin,
                          urlparse, urlsplit, urlunparse)

url = "https://user:pw@api.example.com:8443/v2/items/search;type=a?q=steel+bolt&size=m6&size=m8&page=2#results"
u = urlparse(url)
print(u.scheme, u.netloc, u.hostname, u.port, u.username, u.password, u.path, u.params, u.query, u.fragment)
print(parse_qs(u.query), parse_qsl(u.query))
print(urlsplit("http://x.org/a/b?c=1").path, urlunparse(u._replace(query="", fragment="", netloc="example.com")))
params = {"q": "café & crème", "tags": ["a b", "c/d"], "n": 5}
print(urlencode(params, doseq=True), urlencode({"x": "1 2"}, quote_via=quote))
print(quote("/path with spaces/ü?x=1"), quote("/a b", safe=""), quote_plus("a b&c"), unquote("%C3%BC%20x"), unquote_plus("a+b%26c"))
base = "https://example.com/docs/guide/intro.html"
for ref in ["setup.html", "../api/", "/root", "//cdn.example.com/x.js", "?page=2", "#top", "https://other.org/"]:
    print(ref, "->", urljoin(base, ref))
print(urlparse("mailto:sales@example.com").path, urlparse("file:///etc/hosts").path, urlparse("example.com/x").netloc == "")
