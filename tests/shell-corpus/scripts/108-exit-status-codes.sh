# Exit statuses of common failures.
ls missing-file 2>/dev/null; echo "ls: $?"
grep -q zzz README.md; echo "grep no match: $?"
grep -q x missing-file 2>/dev/null; echo "grep missing file: $?"
cat missing-file 2>/dev/null; echo "cat: $?"
nonexistent-command-xyz 2>/dev/null; echo "not found: $?"
(exit 300); echo "wraps: $?"
