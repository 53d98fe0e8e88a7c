# "$@" forwarding and shifting inside functions.
log() { local level=$1; shift; printf '[%s] %s\n' "$level" "$*"; }
wrap() { log INFO "$@"; }
wrap "two  spaces" kept
each() { while (($#)); do echo "arg: $1"; shift; done; }
each a "b c" d
