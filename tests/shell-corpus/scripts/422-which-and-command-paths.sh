# which, command -v and type agree on where commands live; builtins have no file.
which ls sort; echo "which: $?"
command -v grep
type -P sed
type ls | sed 's/is hashed/is/'
type cd
which cd nosuchcmd; echo "missing: $?"
command -v nosuchcmd; echo "command -v missing: $?"
[ -x /usr/bin/env ] && echo "env is executable"
