# npm test and npm run with --silent: the script's own output and exit code.
cd fixtures/npm-project
npm test --silent -- one two
npm run greet --silent
npm run fail --silent
echo "corpus: exit $?"
