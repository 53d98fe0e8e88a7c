# [[ ]] string comparisons and patterns.
s="crate/src/main.rs"
[[ $s == *.rs ]] && echo "rust file"
[[ $s == "*.rs" ]] || echo "quoted pattern is literal"
[[ $s != *.js ]] && echo "not js"
[[ -z "" && -n $s ]] && echo "empty/non-empty"
[[ abc < abd ]] && echo "abc sorts first"
[[ $s =~ ^crate/(.*)/([a-z]+)\.rs$ ]] && echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
