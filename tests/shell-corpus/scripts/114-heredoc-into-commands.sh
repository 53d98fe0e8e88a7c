# Here-documents into grep, sort and awk.
sort -r <<EOF
banana
apple
cherry
EOF
grep -c a <<EOF
abc
xyz
aaa
EOF
awk '{ s += $1 } END { print s }' <<EOF
1
2
3
EOF
