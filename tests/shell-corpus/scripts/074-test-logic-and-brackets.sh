# && || ! and grouping inside tests.
x=5
[[ $x -gt 1 && $x -lt 10 ]] && echo "in range"
[[ $x -lt 1 || $x -eq 5 ]] && echo "or works"
[[ ! -d $x ]] && echo "not a dir"
[ "$x" = 5 -a -f README.md ] && echo "old-style and"
[[ ( $x -eq 5 ) && ( -n "y" ) ]] && echo "grouped"
