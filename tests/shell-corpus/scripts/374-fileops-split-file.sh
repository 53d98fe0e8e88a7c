# Split a file into chunks.
mkdir parts
split -l 50 data/access.log parts/log-
ls parts
wc -l parts/* | tail -n 1
cat parts/* | cmp - data/access.log && echo "reassembled"
