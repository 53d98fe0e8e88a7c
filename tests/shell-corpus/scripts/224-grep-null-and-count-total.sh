# Total matches across files.
grep -rc 'assert' crate web | awk -F: '{ s += $2 } END { print s }'
grep -ro 'assert' crate web | wc -l
