# Join with IFS, split with read -a.
parts=(usr local bin)
(IFS=/; echo "/${parts[*]}")
IFS=, read -r -a cols <<< "id,name,email,role"
echo "${#cols[@]}: ${cols[3]}"
joined=$(printf '%s+' "${parts[@]}")
echo "${joined%+}"
