# A function's output can be redirected as a whole.
report() {
  echo "# Report"
  echo "docs: $(ls docs | wc -l)"
  echo "rust: $(find crate -name '*.rs' | wc -l)"
}
report > report.md
report >> report.md
wc -l < report.md
cat report.md | head -n 3
