# pipefail makes a pipeline fail if any part fails.
false | true
echo "without pipefail: $?"
set -o pipefail
false | true
echo "with pipefail: $?"
true | (exit 3) | true
echo "rightmost failure: $?"
grep nothing README.md | wc -l
echo "grep no match: $?"
