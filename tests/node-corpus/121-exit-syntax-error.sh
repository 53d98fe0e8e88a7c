# A syntax error in the entry script: nothing runs, exit code 1.
node fixtures/errors/syntax-error.js
echo "corpus: exit $?"
