# < reads a file as stdin.
wc -l < data/users.csv
head -n 2 < notes/todo.txt
while read -r line; do echo "> $line"; done < data/hosts.txt | head -n 3
