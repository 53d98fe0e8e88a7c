# diff -b, -w, -i and -B, alone and together, in normal and unified form.
printf 'one  two\nthree\n\nfour\nFive\n' > a.txt
printf 'one two \nthree\nfour\n\n\nfive\n' > b.txt
for opts in "" "-b" "-w" "-B" "-i" "-b -B" "-w -B -i"; do
  echo "== diff $opts"
  diff $opts a.txt b.txt; echo "status $?"
done
diff -u -b a.txt b.txt | tail -n +3
diff -w -B -i -q a.txt b.txt; echo "quiet: $?"
rm a.txt b.txt
