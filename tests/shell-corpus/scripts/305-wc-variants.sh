# wc -l -w -c and several files.
wc -l data/users.csv
wc -w < README.md
wc -c < LICENSE
wc -l notes/*.txt
wc docs/index.md
wc -L data/hosts.txt
