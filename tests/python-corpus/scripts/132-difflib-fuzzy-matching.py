"""SequenceMatcher ratios, matching blocks, opcodes and get_close_matches for typos."""
import difflib

commands = ["install", "uninstall", "list", "search", "show", "freeze", "download", "config", "check"]
for typo in ["instal", "serch", "lsit", "confgi", "xyz", "dowload", "chek"]:
    print(typo, "->", difflib.get_close_matches(typo, commands, n=2, cutoff=0.6))
sm = difflib.SequenceMatcher(None, "private Thread currentThread;", "private volatile Thread currentThread;")
print(round(sm.ratio(), 4), round(sm.quick_ratio(), 4), round(sm.real_quick_ratio(), 4))
for tag, i1, i2, j1, j2 in sm.get_opcodes():
    print(tag, i1, i2, j1, j2)
print(sm.find_longest_match(0, 29, 0, 38))
print([tuple(b) for b in sm.get_matching_blocks()])
sm = difflib.SequenceMatcher(lambda c: c == " ", "abcd efgh", "abXd efgh")
print(round(sm.ratio(), 4))
names = ["Alice Martin", "Bob Chen", "Carla Diaz", "Dmitri Volkov"]
print(difflib.get_close_matches("carla díaz".title(), names, n=1, cutoff=0.5))
print(round(difflib.SequenceMatcher(None, "kitten", "sitting").ratio(), 4))
