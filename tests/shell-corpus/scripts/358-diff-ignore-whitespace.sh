# -w and -B ignore whitespace and blank lines.
printf 'a b\nc\n' > x.txt
printf 'a   b\n\nc\n' > y.txt
diff x.txt y.txt > /dev/null; echo "plain: $?"
diff -w -B x.txt y.txt; echo "ignoring: $?"
rm x.txt y.txt
