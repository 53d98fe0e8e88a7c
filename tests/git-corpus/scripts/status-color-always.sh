# Colour in long and short status and in -sb's branch line with
# color.ui=always or color.status=always; --porcelain stays plain.
git init -q -b main
printf 'a\nb\nc\n' > f.txt && git add . && git commit -q -m base
printf 'a\nB\nc\nd\n' > f.txt && echo u > u.txt; echo x > n.txt; git add n.txt
git -c color.ui=always status
git -c color.ui=always status -sb
git -c color.status=always -c color.ui=never status -s
git -c color.ui=always status --porcelain
