# ERR trap on failing commands.
trap 'echo "ERR trap: status $?"' ERR
echo "ok"
false
ls /definitely/not/here 2>/dev/null
echo "end"
