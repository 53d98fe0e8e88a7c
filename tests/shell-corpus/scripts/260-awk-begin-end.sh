# BEGIN and END blocks.
awk 'BEGIN { print "start" } /^\[x\]/ { n++ } END { print n " done of " NR }' notes/todo.txt
awk 'BEGIN { FS = ","; OFS = " | " } NR <= 3 { print $1, $4 }' data/users.csv
