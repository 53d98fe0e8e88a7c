# split() and gsub().
awk -F, 'NR > 1 && NR < 4 { n = split($3, p, "@"); print p[1], "at", p[2], n }' data/users.csv
awk '{ gsub(/[aeiou]/, "_"); print }' notes/ideas.txt | head -n 3
awk '{ n = gsub(/a/, "a"); t += n } END { print t, "letter a" }' data/words.txt
