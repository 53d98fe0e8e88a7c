"""Agent job: build a tiny static site from the markdown docs (headings, paragraphs, lists, code)."""
import html
import os
import re


def md_to_html(text):
    out, in_list = [], False
    for line in text.splitlines():
        if in_list and not line.startswith("- "):
            out.append("</ul>")
            in_list = False
        if m := re.match(r"(#{1,6}) (.*)", line):
            n = len(m.group(1))
            out.append(f"<h{n}>{html.escape(m.group(2))}</h{n}>")
        elif line.startswith("- "):
            if not in_list:
                out.append("<ul>")
                in_list = True
            out.append(f"<li>{inline(line[2:])}</li>")
        elif line.strip():
            out.append(f"<p>{inline(line)}</p>")
    if in_list:
        out.append("</ul>")
    return "\n".join(out)


def inline(s):
    s = html.escape(s, quote=False)
    s = re.sub(r"`([^`]+)`", r"<code>\1</code>", s)
    return re.sub(r"\[([^\]]+)\]\(([^)]+)\)", r'<a href="\2">\1</a>', s)


os.makedirs("site", exist_ok=True)
pages = []
for name in sorted(os.listdir("docs")):
    if name.endswith(".md"):
        body = md_to_html(open(os.path.join("docs", name), encoding="utf-8").read())
        out = os.path.join("site", name[:-3] + ".html")
        with open(out, "w") as f:
            f.write(f"<!doctype html>\n<title>{name}</title>\n{body}\n")
        pages.append(out)
with open("site/index.html", "w") as f:
    f.write("<ul>\n" + "".join(f'<li><a href="{os.path.basename(p)}">{os.path.basename(p)}</a></li>\n' for p in pages) + "</ul>\n")
print(pages)
print(open("site/changelog.html").read())
