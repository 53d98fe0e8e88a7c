# Positional parameters, shift and ${@:n}.
set -- a b c d e
echo "$1 $3 $#"
shift
echo "$1 $#"
shift 2
echo "$* / $#"
set -- one two three four
echo "${@:2}"
echo "${@:2:2}"
echo "${@: -1}"
