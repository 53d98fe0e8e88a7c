# truncate and mkdir -p on existing paths.
truncate -s 0 data/access.log
wc -c < data/access.log
mkdir -p data
mkdir data 2>/dev/null || echo "mkdir refused existing"
truncate -s 10 data/empty.txt
od -An -c data/empty.txt | head -n 1
