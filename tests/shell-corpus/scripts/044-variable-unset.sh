# unset variables and functions.
a=1
unset a
echo "a=[${a-unset}]"
f() { echo in f; }
f
unset -f f
f 2>/dev/null || echo "f is gone"
