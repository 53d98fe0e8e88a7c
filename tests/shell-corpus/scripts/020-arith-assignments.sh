# Arithmetic assignment operators, let and (( )).
i=0
((i++))
((i += 10))
((i *= 3))
echo "$i"
let "j = i / 4" "k = j % 5"
echo "$j $k"
x=7
((x--, x--))
echo "$x"
((n = 3, m = n * n))
echo "$n $m"
