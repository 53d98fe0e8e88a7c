"""Emoji and non-BMP text: lengths in code points, UTF-8/16/32 bytes, slicing, escapes."""
text = open("docs/unicode.txt", encoding="utf-8").read()
emoji_line = text.splitlines()[2]
print(emoji_line, len(emoji_line), len(emoji_line.encode("utf-8")), len(emoji_line.encode("utf-16-le")) // 2)
for ch in emoji_line.split(": ")[1].split():
    print(ch, len(ch), [hex(ord(c)) for c in ch], ch.encode("utf-8").hex(" "), ch.encode("unicode_escape"))
snake = "\N{SNAKE}"
print(snake == "🐍", "\U0001F40D" == snake, ord(snake), chr(0x1F680), f"{ord(snake):08X}")
print("naïve".encode("utf-8"), "naïve".encode("utf-16-be"), "naïve".encode("utf-32-le")[:8])
print(b"\xf0\x9f\x90\x8d".decode("utf-8"), b"\xf0\x9f\x90".decode("utf-8", "replace"), len(b"\xf0\x9f\x90".decode("utf-8", "replace")))
print("日本語".encode("utf-8"), "日本語".encode("shift_jis"), "日本語".encode("euc-jp").hex())
print(sorted(text.split()[:6]), max(text.splitlines(), key=len)[:10])
print("é" < "z", sorted(["é", "e", "f", "z", "É"]), "ǅ".upper(), "ǅ".lower(), "ǅ".title(), "ﬁ".upper())
words = text.split()
print(sum(1 for w in words if not w.isascii()), sum(1 for w in words if w.isascii()))
