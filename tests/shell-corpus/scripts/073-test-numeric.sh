# Numeric comparisons in [[ ]] and [ ].
a=10 b=9
[[ $a -gt $b ]] && echo "10 > 9 numerically"
[[ $a > $b ]] || echo "but 10 < 9 as strings"
[ "$a" -eq 10 ] && echo "eq"
[ "$b" -le 9 ] && echo "le"
test "$a" -ne "$b" && echo "ne"
[[ $((a % 2)) -eq 0 ]] && echo "even"
