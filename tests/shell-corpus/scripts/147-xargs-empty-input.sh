# xargs with no input.
printf '' | xargs echo "ran with:"
printf '' | xargs -r echo "never"
echo "done"
