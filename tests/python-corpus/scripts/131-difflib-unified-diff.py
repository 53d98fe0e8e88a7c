"""difflib.unified_diff and context_diff of two versions of a document; write a patch file."""
import difflib

a = open("docs/notes_v1.txt").read().splitlines(keepends=True)
b = open("docs/notes_v2.txt").read().splitlines(keepends=True)
diff = list(difflib.unified_diff(a, b, fromfile="a/notes.txt", tofile="b/notes.txt"))
print("".join(diff), end="")
with open("notes.patch", "w") as f:
    f.writelines(diff)
print("---- context")
print("".join(difflib.context_diff(a, b, fromfile="v1", tofile="v2", n=1)), end="")
print("---- n=0")
for line in difflib.unified_diff(a, b, lineterm="", n=0):
    print(line.rstrip("\n"))
added = sum(1 for l in diff if l.startswith("+") and not l.startswith("+++"))
removed = sum(1 for l in diff if l.startswith("-") and not l.startswith("---"))
print(f"+{added} -{removed}")
print(list(difflib.ndiff(["one\n", "two\n"], ["one\n", "too\n"])))
restored = list(difflib.restore(difflib.ndiff(a, b), 2))
print(restored == b)
