# A function can shadow a command; `command` bypasses it.
ls() { echo "my ls $*"; }
ls docs
command ls docs | head -n 2
unset -f ls
ls docs | head -n 1
