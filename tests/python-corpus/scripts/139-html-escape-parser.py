"""html.escape/unescape and an HTMLParser that collects links, headings and text."""
import html
from html.parser import HTMLParser

print(html.escape('<a href="x">Tom & Jerry\'s</a>'), html.escape("<b>", quote=False))
print(html.unescape("&lt;p&gt; caf&eacute; &amp; &#8364; &#x1F40D; &nbsp;|"))


class Collector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.headings, self.stack, self.text = [], [], [], []

    def handle_starttag(self, tag, attrs):
        self.stack.append(tag)
        a = dict(attrs)
        if tag == "a":
            self.links.append(a.get("href"))
        if tag == "img":
            print("img", a.get("src"), a.get("alt"))

    def handle_endtag(self, tag):
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()

    def handle_data(self, data):
        if self.stack and self.stack[-1] in ("h1", "title"):
            self.headings.append((self.stack[-1], data))
        if data.strip():
            self.text.append(data.strip())


p = Collector()
p.feed(open("docs/page.html", encoding="utf-8").read())
p.close()
print(p.links)
print(p.headings)
print(" ".join(p.text))
