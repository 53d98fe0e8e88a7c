# diff's normal, unified (-u, -U N) and context (-c) formats, a missing final newline, -N.
seq 1 20 > a.txt
seq 1 20 | sed -e 's/^5$/five/' -e '12d' -e '18a\
18.5' > b.txt
diff a.txt b.txt; echo "normal: $?"
diff -u a.txt b.txt | tail -n +3
diff -U1 a.txt b.txt | tail -n +3
diff -c a.txt b.txt | tail -n +3
printf 'x\ny' > c.txt
printf 'x\nz\n' > d.txt
diff c.txt d.txt
diff -u c.txt d.txt | tail -n +3
diff -N c.txt missing.txt | head -3; echo "new file: $?"
diff c.txt missing.txt; echo "missing: $?"
diff --label old --label new -u a.txt b.txt | head -2
rm a.txt b.txt c.txt d.txt
