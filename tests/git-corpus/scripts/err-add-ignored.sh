# The message for an ignored path given to add, and for a missing one.
git init -q -b main
echo '*.log' > .gitignore
echo x > debug.log
git add debug.log
echo "exit $?"
git add missing.txt
echo "exit $?"
git add .
git status -s
