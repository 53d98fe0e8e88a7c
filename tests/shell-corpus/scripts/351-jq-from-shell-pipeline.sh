# Build JSON from shell data.
tail -n +2 data/hosts.txt | jq -R -c 'split(" ") | {name: .[0], ip: .[1], role: .[2]}' | head -n 3
grep -c . data/hosts.txt | jq '. * 2'
jq -R -s -c 'split("\n") | map(select(length > 0)) | length' notes/ideas.txt
