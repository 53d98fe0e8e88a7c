# head/tail -n, +N, -c, negative counts.
head -n 2 data/hosts.txt
tail -n 2 data/hosts.txt
tail -n +6 data/hosts.txt
head -n -5 data/hosts.txt
head -c 20 LICENSE; echo
tail -c 15 LICENSE
