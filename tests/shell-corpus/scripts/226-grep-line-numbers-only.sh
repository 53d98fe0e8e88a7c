# Line numbers of matches, for sed.
grep -n '^## ' docs/guide.md | cut -d: -f1 | tr '\n' ' '
echo
start=$(grep -n '^## Configuring' docs/guide.md | cut -d: -f1)
end=$(grep -n '^## Receiving' docs/guide.md | cut -d: -f1)
sed -n "${start},$((end - 1))p" docs/guide.md
