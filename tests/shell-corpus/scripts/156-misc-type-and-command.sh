# command -v and type without printing paths.
command -v grep >/dev/null && echo "grep available"
command -v not-a-real-command-xyz >/dev/null || echo "missing command detected"
type -t cd
type -t echo
f() { :; }
type -t f
type -t if
