# exit inside a subshell only ends the subshell.
f() { (exit 7); echo "f continues after $?"; }
f
( echo "sub"; exit 4; echo "no" )
echo "sub status $?"
g() { exit 9; }
g
echo "never"
