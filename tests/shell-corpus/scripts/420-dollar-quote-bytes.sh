# $'\377' and $'\xff' are single bytes, not UTF-8 characters.
s=$'\377'
printf '%s' "$s" | od -An -tx1
printf '%s' $'\xfe\x41' | od -An -tx1
t=$'a\xffb'
echo "${#t}"
