# eval builds and runs commands.
cmd='echo "evaluated: $((2 + 3))"'
eval "$cmd"
for i in 1 2 3; do eval "var_$i=$((i * i))"; done
echo "$var_1 $var_2 $var_3"
eval "set -- a b c"
echo "$#"
