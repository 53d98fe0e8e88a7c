# Commands that read stdin see EOF.
cat
wc -l
head -n 1
echo "all read nothing"
