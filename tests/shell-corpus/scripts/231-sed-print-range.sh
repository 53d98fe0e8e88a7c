# -n with p prints selected lines.
sed -n '3,5p' data/users.csv
sed -n '$p' data/users.csv
sed -n '2p;4p' notes/todo.txt
sed -n '/^## 0.4.0/,/^## 0.3.0/p' docs/changelog.md
