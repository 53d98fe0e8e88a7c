# "$@" keeps arguments apart; "$*" joins them with the first IFS char.
set -- "first arg" second "third  arg"
printf '(%s)\n' "$@"
printf '(%s)\n' "$*"
IFS=,
echo "$*"
unset IFS
printf '(%s)\n' $*
echo "$#"
