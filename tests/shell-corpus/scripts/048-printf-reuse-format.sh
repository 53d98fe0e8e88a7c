# The format is reused for extra arguments; missing ones are empty/zero.
printf '%s-%s\n' a b c d e
printf '%d:%s\n' 1 one 2
printf '[%s]\n'
printf '%s\n' "${undefined_array[@]}" end
