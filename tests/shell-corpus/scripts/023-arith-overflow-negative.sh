# 64-bit wrap-around and negative numbers.
echo $((9223372036854775807 + 1))
echo $((-9223372036854775807 - 1))
echo $((2 ** 62))
echo $(( -7 / 2 )) $(( -7 % 2 ))
echo $((0 - 3 * -4))
