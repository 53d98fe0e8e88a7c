# bash -c with positional args.
bash -c 'echo "$0 got $# args: $*"' prog one two three
bash -c 'exit 6'; echo "status $?"
sh -c 'echo "sh works: $((1 + 1))"'
