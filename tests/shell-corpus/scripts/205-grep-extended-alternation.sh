# -E with alternation and groups.
grep -E ' (ERROR|WARN) ' data/error.log | head -n 5
grep -cE 'ERROR|WARN' data/error.log
grep -E 'item [0-9]+ not found' data/error.log | sort -u
