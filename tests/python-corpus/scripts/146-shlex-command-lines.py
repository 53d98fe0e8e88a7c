"""shlex: splitting and quoting command lines an agent builds."""
import shlex

for line in ['grep -rn "TODO: fix" src/', "echo 'single quoted' \"double $HOME\" plain\\ escaped", "a=1 b='2 3' cmd --flag=\"x y\"", "# comment only", "ls -la # trailing comment"]:
    print(shlex.split(line))
print(shlex.split("ls -la # trailing comment", comments=True))
args = ["git", "commit", "-m", "fix: handle 'quotes' and $vars", "--author=Ada <ada@example.com>", ""]
cmd = shlex.join(args)
print(cmd)
print(shlex.split(cmd) == args)
print([shlex.quote(s) for s in ["simple", "with space", "it's", "", "$(rm -rf)", "a\"b"]])
lex = shlex.shlex("a=b, c = 'd e'; f", posix=True, punctuation_chars=True)
print(list(lex))
try:
    shlex.split('unterminated "quote')
except ValueError as e:
    print("ValueError:", e)
