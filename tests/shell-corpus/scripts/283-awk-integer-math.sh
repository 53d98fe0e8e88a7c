# int(), modulo and exponent.
awk 'BEGIN { print int(7.9), int(-7.9), 17 % 5, 2 ^ 10, 10 / 4 }'
awk 'BEGIN { x = 1; for (i = 0; i < 5; i++) x *= 3; print x }'
