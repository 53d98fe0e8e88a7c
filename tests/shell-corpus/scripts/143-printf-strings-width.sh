# Widths and precisions from arguments.
printf '%*s|\n' 8 right
printf '%-*s|\n' 8 left
printf '%.*s|\n' 3 truncated
printf '%s\n' "" | wc -c
