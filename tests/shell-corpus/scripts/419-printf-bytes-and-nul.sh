# printf writes raw bytes: \377, \x00, \0 and NULs from %b reach the pipe as bytes.
printf '\377\376' | od -An -tx1
printf '\x00\x01A' | od -c
printf 'a\0b' | od -c
printf '%b' 'x\0y' | od -c
printf '%s\0' one two | tr '\0' ,; echo
echo -e 'tab\tesc\e[0m' | od -c | head -n 2
