# Append a license header to many files.
for f in $(find web/src -name '*.js' | sort); do
  { echo "// SPDX-License-Identifier: MIT"; cat "$f"; } > "$f.new" && mv "$f.new" "$f"
done
head -n 2 web/src/index.js
grep -rL 'SPDX' web/src | wc -l
