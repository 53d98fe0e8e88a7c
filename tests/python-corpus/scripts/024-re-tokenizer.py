"""A small expression tokenizer and evaluator built on re.finditer and lastgroup."""
import re

TOKENS = [
    ("NUMBER", r"\d+(?:\.\d*)?"),
    ("NAME", r"[A-Za-z_]\w*"),
    ("OP", r"[+\-*/()^]"),
    ("SKIP", r"\s+"),
    ("BAD", r"."),
]
SCANNER = re.compile("|".join(f"(?P<{n}>{p})" for n, p in TOKENS))


def tokenize(src):
    for m in SCANNER.finditer(src):
        kind = m.lastgroup
        if kind == "SKIP":
            continue
        if kind == "BAD":
            raise SyntaxError(f"bad character {m.group()!r} at {m.start()}")
        yield kind, m.group()


def parse(tokens, env):
    tokens = list(tokens)
    pos = 0

    def peek():
        return tokens[pos][1] if pos < len(tokens) else None

    def take():
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def atom():
        kind, val = take()
        if val == "(":
            v = expr()
            take()
            return v
        if val == "-":
            return -atom()
        if kind == "NUMBER":
            return float(val)
        return env[val]

    def power():
        base = atom()
        if peek() == "^":
            take()
            return base ** power()
        return base

    def term():
        v = power()
        while peek() in ("*", "/"):
            op = take()[1]
            v = v * power() if op == "*" else v / power()
        return v

    def expr():
        v = term()
        while peek() in ("+", "-"):
            op = take()[1]
            v = v + term() if op == "+" else v - term()
        return v

    return expr()


env = {"x": 3, "rate": 0.5}
for src in ["1 + 2 * 3", "(1 + 2) * 3", "2 ^ 3 ^ 2", "x * rate - 1", "-(4 - 10) / 4", "10 / 4"]:
    print(f"{src:15} tokens={len(list(tokenize(src)))} value={parse(tokenize(src), env)}")
try:
    list(tokenize("1 + $"))
except SyntaxError as e:
    print("error:", e.msg if hasattr(e, "msg") else e)
