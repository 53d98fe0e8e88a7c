# Split on newlines only.
IFS=$'\n'
for f in $(ls notes); do echo "[$f]"; done
unset IFS
