# The order of redirections matters.
{ echo out; echo err >&2; } 2>&1 > only-stdout.txt | sed 's/^/piped: /'
cat only-stdout.txt
rm only-stdout.txt
