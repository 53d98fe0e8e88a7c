"""Word frequencies with collections.Counter."""
import re
from collections import Counter

text = open("data/words.txt").read()
words = re.findall(r"[a-z']+", text.lower())
counts = Counter(words)
print("words:", len(words), "distinct:", len(counts))
for word, n in counts.most_common(8):
    print(f"{word:10} {n}")
letters = Counter(c for c in text.lower() if c.isalpha())
print("top letters:", letters.most_common(5))
first = Counter(w[0] for w in words)
print("by first letter t/a/s:", first["t"], first["a"], first["s"], first["zzz"])
a = Counter("abracadabra")
b = Counter("alakazam")
print("a+b", sorted((a + b).items()))
print("a-b", sorted((a - b).items()))
print("a&b", sorted((a & b).items()))
print("a|b", sorted((a | b).items()))
a.subtract({"a": 10})
print("after subtract:", sorted(a.items()), "positive:", sorted((+a).items()))
print(sorted(Counter({"x": 3, "y": 1}).elements()))
print(Counter(words).total())
