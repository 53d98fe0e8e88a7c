"""fnmatch for include/exclude rules, like a .gitignore-ish filter."""
import fnmatch
import os
import re

rules = ["*.png", "tests/*", "!tests/test_models.py", "*.copy.*", "config/*.yaml"]
all_files = sorted(os.path.relpath(os.path.join(d, f), "project") for d, _, fs in os.walk("project") for f in fs)


def ignored(path):
    result = False
    for rule in rules:
        negate = rule.startswith("!")
        pat = rule[1:] if negate else rule
        if fnmatch.fnmatch(path, pat) or fnmatch.fnmatch(os.path.basename(path), pat):
            result = not negate
    return result


for f in all_files:
    print("skip" if ignored(f) else "keep", f)
print(fnmatch.filter(["a.py", "B.PY", "c.txt", "d.pyc"], "*.py"))
print(fnmatch.fnmatchcase("B.PY", "*.py"), fnmatch.fnmatch("file[1].txt", "file[[]1].txt"))
print(fnmatch.translate("*.t?t").startswith("(?s:"), bool(re.match(fnmatch.translate("data_[0-9]*"), "data_7x")))
print(fnmatch.fnmatch("x/y/z.py", "*.py"), fnmatch.fnmatch("a.txt", "[!ab]*"))
