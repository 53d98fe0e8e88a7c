"""re.sub with backreferences and functions: renaming, masking, templating."""
import re

text = "Contact alice@example.com or bob.smith@example.org before 2024-03-15; call 555-123-4567."
print(re.sub(r"(\d{4})-(\d{2})-(\d{2})", r"\3/\2/\1", text))
print(re.sub(r"(?P<user>[\w.]+)@(?P<host>[\w.]+)", r"\g<user> at \g<host>", text))


def mask(m):
    user, host = m.group(1), m.group(2)
    return user[0] + "*" * (len(user) - 1) + "@" + host


print(re.sub(r"([\w.]+)@([\w.]+)", mask, text))
print(re.sub(r"\d", "#", text, count=4))
new, n = re.subn(r"\s+", " ", "a   b\t\tc\n\nd")
print(repr(new), n)

snake = re.compile(r"(?<!^)(?=[A-Z])")
for name in ["parseHttpResponse", "XMLParser", "simple", "getHTTPStatusCode"]:
    print(name, "->", snake.sub("_", name).lower())

template = "Hello {name}, you owe {amount} by {date}. {unknown} stays."
values = {"name": "Ada", "amount": "€12.50", "date": "Friday"}
print(re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), m.group(0)), template))
print(re.sub(r"(?i)WIDGET", lambda m: m.group(0).swapcase(), "Widget widget WIDGET"))
print(re.escape("1.5*x+[y]"))
