# Sort an array through sort(1).
vals=(pear apple fig apple banana fig)
mapfile -t sorted < <(printf '%s\n' "${vals[@]}" | sort -u)
echo "${sorted[*]}"
echo "${#sorted[@]}"
