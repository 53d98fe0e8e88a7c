# String building in loops.
out=""
for w in alpha beta gamma; do
  out+="${w:0:1}"
done
echo "$out"
s="a,b,c,d"
count=0
rest=$s
while [[ $rest == *,* ]]; do rest=${rest#*,}; ((count++)); done
echo "commas: $count last: $rest"
