# q stops after a line.
sed 5q data/numbers.txt
sed '/Phase 3/q' "notes/Project Plan.txt"
