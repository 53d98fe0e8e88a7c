# A missing key prints nothing and exits 1; a key with no section is an
# error.
git init -q -b main
git config no.such
echo "exit $?"
git config nosection
echo "exit $?"
git config --global --get user.name
echo "exit $?"
