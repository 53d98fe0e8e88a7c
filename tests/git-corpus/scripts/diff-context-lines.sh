# -U1, -U0 and the default three lines; hunk headers show the enclosing
# "function" line.
git init -q -b main
printf 'int main() {\n  a();\n  b();\n  c();\n  d();\n  e();\n  f();\n  g();\n  return 0;\n}\n' > main.c
git add . && git commit -q -m base
sed -i 's/e();/E();/' main.c
git diff
git diff -U1
git diff -U0
git diff --unified=5
