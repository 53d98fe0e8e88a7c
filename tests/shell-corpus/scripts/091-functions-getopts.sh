# getopts parsing inside a function.
parse() {
  local OPTIND opt verbose=0 out=- name
  while getopts "vo:n:" opt; do
    case $opt in
      v) verbose=1 ;;
      o) out=$OPTARG ;;
      n) name=$OPTARG ;;
      *) echo "bad option"; return 2 ;;
    esac
  done
  shift $((OPTIND - 1))
  echo "verbose=$verbose out=$out name=${name:-none} rest=$*"
}
parse -v -o file.txt a b
parse -n test
parse -x 2>/dev/null; echo "status $?"
