# Insert a changelog entry after the title.
entry="## 0.4.3\n\n- Fix: sqlite apply is now transactional.\n"
sed -i "0,/^## /s//$entry\n## /" docs/changelog.md
head -n 8 docs/changelog.md
grep -c '^## ' docs/changelog.md
