# echo -n -e -E.
echo -n "no newline"; echo "|"
echo -e "a\tb\\c"
echo -E 'raw\t'
echo -e 'x\ny'
echo -- -n
