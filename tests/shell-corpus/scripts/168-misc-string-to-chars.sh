# Iterate over characters.
s="hello"
for ((i = 0; i < ${#s}; i++)); do printf '%s-' "${s:i:1}"; done; echo
rev <<< "$s"
echo "$s" | fold -w 1 | sort | uniq -c | awk '{printf "%s%s ", $2, $1} END {print ""}'
