# Compare version strings with sort -V.
versions=(0.4.2 0.10.0 0.4.10 1.0.0 0.9.9)
printf '%s\n' "${versions[@]}" | sort -V
newest=$(printf '%s\n' "${versions[@]}" | sort -V | tail -n 1)
echo "newest: $newest"
