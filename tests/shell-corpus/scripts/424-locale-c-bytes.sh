# Switching LC_ALL inside the script: C counts bytes in ${#s}, ? and ${s:i:n}.
LC_ALL=C.UTF-8
s='héllo'
echo "utf8: ${#s}"
LC_ALL=C
echo "c: ${#s}"
case $s in h??llo) echo "two bytes match ??" ;; h?llo) echo "one char matches ?" ;; esac
[[ $s == h??llo ]] && echo "[[ ]] sees bytes"
printf '%s' "${s:1:2}" | od -An -tx1
