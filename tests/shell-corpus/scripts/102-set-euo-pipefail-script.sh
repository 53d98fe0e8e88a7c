# The classic strict-mode header in a realistic script.
set -euo pipefail
count=$(grep -rl 'TODO' crate/src | wc -l)
echo "files with TODO: $count"
first=$(grep -rh 'TODO' crate/src | sort | head -n 1 | sed 's/^ *//')
echo "first: $first"
missing=$(grep -c 'NOPE' README.md)
echo "not reached: $missing"
