# xargs -0 handles spaces in names.
find . -name '* *' -print0 | sort -z | xargs -0 -n 1 printf '[%s]\n'
find notes -type f -print0 | xargs -0 cat | wc -l
