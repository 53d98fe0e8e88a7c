# An unknown subcommand, and an unknown option (usage to stderr, 129 -
# stderr dropped here, only the code is compared).
git init -q -b main
git frobnicate
echo "exit $?"
git status --bogus-option 2>/dev/null
echo "exit $?"
git commit --no-such-thing 2>/dev/null
echo "exit $?"
