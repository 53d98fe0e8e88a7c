# Here-strings.
read -r a b c <<< "one two three four"
echo "$a|$b|$c"
tr 'a-z' 'A-Z' <<< "shout"
wc -w <<< "count these four words"
grep -o '[0-9]\+' <<< "v1.22.333"
