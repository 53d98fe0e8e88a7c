# xargs -I substitutes a placeholder.
ls docs | grep '\.md$' | head -n 3 | xargs -I{} echo "doc: {}"
printf 'one\ntwo\n' | xargs -I % sh -c 'echo "% has ${#0} chars"' %
