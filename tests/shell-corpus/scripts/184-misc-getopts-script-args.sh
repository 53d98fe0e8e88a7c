# Parse this script's own (empty) arguments.
verbose=0
while getopts "v" opt; do
  case $opt in v) verbose=1 ;; esac
done
shift $((OPTIND - 1))
echo "verbose=$verbose remaining=$#"
