# ** with globstar recurses.
shopt -s globstar
for f in crate/**/*.rs; do echo "$f"; done
echo "---"
printf '%s\n' web/**/*.js | wc -l
