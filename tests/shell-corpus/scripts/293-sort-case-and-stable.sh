# -f folds case; -s keeps input order for equal keys.
printf 'banana\nApple\napple\nCherry\n' | sort
printf 'banana\nApple\napple\nCherry\n' | sort -f
printf 'b 2\na 1\nb 1\na 2\n' | sort -s -k1,1
