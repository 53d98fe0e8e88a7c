# IFS whitespace vs non-whitespace.
IFS=' ' read -r -a a <<< "  a   b  "
echo "${#a[@]}"
IFS=, read -r -a b <<< ",a,,b,"
echo "${#b[@]}: $(printf '[%s]' "${b[@]}")"
