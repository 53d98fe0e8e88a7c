# File sizes with stat and wc.
stat -c '%s %n' README.md LICENSE data/hosts.txt
stat -c '%F' README.md docs current
wc -c README.md LICENSE | tail -n 1
