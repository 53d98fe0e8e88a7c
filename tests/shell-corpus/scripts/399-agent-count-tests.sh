# Count test functions per crate file.
grep -rc '#\[test\]' crate | grep -v ':0$' | sort -t: -k2,2nr -k1,1 | awk -F: '{ t += $2; print } END { print "total: " t }'
