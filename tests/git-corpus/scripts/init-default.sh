# `git init` with no options: the message names the absolute .git (the
# harness maps the oracle's temporary root onto /), HEAD points at master,
# a second init says "Reinitialized".
git init
echo "exit $?"
cat .git/HEAD
git symbolic-ref HEAD
git init
git init -q
echo "quiet exit $?"
git status
