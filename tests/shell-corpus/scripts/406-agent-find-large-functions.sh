# Functions longer than 10 lines in Rust files.
for f in $(find crate/src -name '*.rs' | sort); do
  awk -v file="$f" '/^ *(pub )?(async )?fn / { name = $0; sub(/^ */, "", name); sub(/\(.*/, "", name); start = NR; depth = 0 } start { o = gsub(/{/, "{"); c = gsub(/}/, "}"); depth += o - c; if (depth == 0 && (o || c)) { if (NR - start + 1 > 10) print file ": " name " (" NR - start + 1 " lines)"; start = 0 } }' "$f"
done
