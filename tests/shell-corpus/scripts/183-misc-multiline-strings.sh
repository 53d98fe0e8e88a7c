# Multi-line strings in variables.
text="line one
line two
line three"
echo "$text" | wc -l
echo "${text%%$'\n'*}"
echo "${text##*$'\n'}"
lines=${text//$'\n'/ | }
echo "$lines"
