"""textwrap: wrapping paragraphs, dedent/indent, shorten."""
import textwrap

text = open("data/words.txt").read().replace("\n", " ")
for width in (30, 50):
    print(f"--- width {width}")
    print(textwrap.fill(text[:200], width=width))
print(textwrap.wrap("a" * 25 + " b", width=10))
print(textwrap.wrap("a" * 25 + " b", width=10, break_long_words=False))
print(textwrap.fill("- item one is long enough to wrap around", width=20, initial_indent="* ", subsequent_indent="  "))
code = """
    def f():
        return 1
      # odd comment
"""
print(repr(textwrap.dedent(code)))
print(textwrap.indent("line1\n\nline3\n", "> "))
print(textwrap.indent("line1\n\nline3\n", "> ", predicate=lambda l: True))
print(textwrap.shorten("The quick brown fox jumps over the lazy dog", width=25))
print(textwrap.shorten("The quick brown fox", width=25, placeholder=" [...]"))
w = textwrap.TextWrapper(width=15, max_lines=2, placeholder="~")
print(w.wrap("one two three four five six seven eight"))
print(textwrap.fill("tabs\tand\tspaces", width=12, expand_tabs=True, tabsize=4))
