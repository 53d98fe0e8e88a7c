# Range patterns.
awk '/^## 0.4.0/,/^## 0.3.0/' docs/changelog.md
awk 'NR == 3, NR == 5 { print NR, $0 }' data/hosts.txt
