# The last line without a newline needs || [[ -n $line ]].
printf 'one\ntwo\nthree' > nonl.txt
while read -r line; do echo "read: $line"; done < nonl.txt
echo "---"
while read -r line || [[ -n $line ]]; do echo "read: $line"; done < nonl.txt
rm nonl.txt
