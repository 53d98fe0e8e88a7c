# Inserting a block between similar blocks: git slides the hunk to the
# most readable place (the indent heuristic is on by default).
git init -q -b main
printf 'fn a() {\n    one();\n}\n\nfn c() {\n    three();\n}\n' > lib.rs
git add . && git commit -q -m base
printf 'fn a() {\n    one();\n}\n\nfn b() {\n    two();\n}\n\nfn c() {\n    three();\n}\n' > lib.rs
git diff
printf 'x\n{\n  y\n}\nz\n' > b.txt && git add b.txt && git commit -q -m b
printf 'x\n{\n  y\n}\n{\n  y\n}\nz\n' > b.txt
git diff b.txt
