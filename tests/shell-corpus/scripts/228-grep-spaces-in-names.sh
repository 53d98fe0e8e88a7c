# grep on files with spaces in their names.
grep -n 'Phase' "notes/Project Plan.txt"
grep -l 'TODO' docs/* 2>/dev/null
grep -c ',' "data/sales 2023.csv"
