# [ ] needs quotes around empty variables.
empty=""
[ -z "$empty" ] && echo "empty is empty"
[ "$empty" = "" ] && echo "equals empty string"
[ -n "$empty" ] || echo "not non-empty"
[ "a" \< "b" ] && echo "escaped less-than"
