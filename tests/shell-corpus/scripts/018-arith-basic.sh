# $(( )) with the usual operators.
a=17 b=5
echo $((a + b)) $((a - b)) $((a * b)) $((a / b)) $((a % b))
echo $((a ** 2)) $((-a / b)) $((-a % b))
echo $(( (a + b) * 2 ))
echo $((a > b)) $((a == b)) $((a != b)) $((a <= b))
echo $((a > b ? a : b))
