# diff -y: side by side, with -W, --suppress-common-lines and --left-column.
printf 'alpha\nbeta\ngamma\n\tindented\ndelta\n' > a.txt
printf 'alpha\nBETA\ngamma\n\tindented\nepsilon\nzeta\n' > b.txt
diff -y a.txt b.txt; echo "status $?"
diff -y -W 40 a.txt b.txt
diff -y --suppress-common-lines a.txt b.txt
diff --side-by-side --left-column -W 60 a.txt b.txt
printf 'last' > c.txt
diff -y a.txt c.txt
rm a.txt b.txt c.txt
