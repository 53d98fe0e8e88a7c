"""Unicode: NFC/NFD normalisation, combining marks, categories, names, casefold."""
import unicodedata

lines = open("docs/unicode.txt", encoding="utf-8").read().splitlines()
last = lines[-1]
decomposed, precomposed = last.split(": ")[1].split(" and ")[0], last.split(": ")[2]
print(decomposed == precomposed, len(decomposed), len(precomposed))
print(unicodedata.normalize("NFC", decomposed) == precomposed, unicodedata.normalize("NFD", precomposed) == decomposed)
for form in ("NFC", "NFD", "NFKC", "NFKD"):
    print(form, [len(unicodedata.normalize(form, s)) for s in ["é", "ﬁ", "①", "Å", "ǅ"]])
for ch in "é\u0301A1 ½€ß":
    print(repr(ch), unicodedata.category(ch), unicodedata.name(ch, "?"), unicodedata.combining(ch), unicodedata.east_asian_width(ch))
print(unicodedata.lookup("SNAKE"), unicodedata.lookup("LATIN SMALL LETTER E WITH ACUTE"))
print(unicodedata.numeric("½"), unicodedata.decimal("7"), unicodedata.digit("³", None), unicodedata.decomposition("é"))


def strip_accents(s):
    return "".join(c for c in unicodedata.normalize("NFD", s) if not unicodedata.combining(c))


print(strip_accents(lines[0]), strip_accents("Ångström Žižek"))
print("Straße".casefold() == "STRASSE".casefold(), "Straße".lower(), "Straße".upper(), "İ".lower().encode("utf-8"), len("İ".lower()))
print(unicodedata.is_normalized("NFC", precomposed), unicodedata.is_normalized("NFC", decomposed))
print(sorted(set(unicodedata.category(c) for c in lines[1])))
