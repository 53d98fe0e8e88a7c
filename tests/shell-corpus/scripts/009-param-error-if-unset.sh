# ${x:?msg} aborts a non-interactive shell.
ok=1
echo "before ${ok:?missing}"
unset gone
echo "${gone:?gone is required}"
echo "never printed"
