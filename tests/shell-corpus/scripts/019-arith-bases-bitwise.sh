# Number bases and bit operations.
echo $((16#ff)) $((8#17)) $((2#1011)) $((0x1F)) $((010))
echo $((5 & 3)) $((5 | 3)) $((5 ^ 3)) $((~5)) $((1 << 10)) $((1024 >> 3))
printf '%x %o\n' 255 8
