# Rust modules without a tests module.
for f in $(find crate/src -name '*.rs' | sort); do
  grep -q '#\[cfg(test)\]' "$f" || echo "no tests: $f"
done
