# --unset, and the exit codes of a missing key (1) and unsetting a missing
# key (5).
git init -q -b main
git config foo.bar baz
git config foo.bar
git config --unset foo.bar
git config foo.bar
echo "get exit $?"
git config --unset foo.bar
echo "unset exit $?"
git config --get no.such.key
echo "missing exit $?"
cat .git/config
