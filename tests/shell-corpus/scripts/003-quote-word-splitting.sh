# Unquoted expansions split on IFS; quoted ones do not.
words="one  two   three"
printf '[%s]\n' $words
printf '[%s]\n' "$words"
empty=""
printf '[%s]\n' $empty "$empty" end
