# while read handles spaces; for over $(cat) splits words.
printf 'one line\ntwo  words here\n' > lines.txt
while IFS= read -r line; do echo "[$line]"; done < lines.txt
for w in $(cat lines.txt); do echo "<$w>"; done
rm lines.txt
