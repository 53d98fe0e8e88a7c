# base64 encode and decode.
echo -n "inventory:secret" | base64
echo "aW52ZW50b3J5OnNlY3JldA==" | base64 -d; echo
base64 data/hosts.txt | head -n 2
base64 -w 0 notes/ideas.txt | base64 -d | cmp - notes/ideas.txt && echo "round trip ok"
