# node on a missing file: MODULE_NOT_FOUND on stderr, exit 1.
node does-not-exist.js
echo "corpus: exit $?"
