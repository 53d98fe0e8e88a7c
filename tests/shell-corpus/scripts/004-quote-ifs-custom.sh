# A custom IFS changes how expansions split.
data="a:b::c"
IFS=:
printf '<%s>\n' $data
unset IFS
set -- $data
echo "count=$#"
