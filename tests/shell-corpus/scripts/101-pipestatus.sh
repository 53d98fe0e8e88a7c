# PIPESTATUS holds every exit code of the last pipeline.
true | false | (exit 5) | true
echo "${PIPESTATUS[@]}"
grep -c Inventory README.md | tr -d '\n' | wc -c
echo "${PIPESTATUS[*]}"
