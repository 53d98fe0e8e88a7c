# Rename an identifier across a crate.
grep -rl 'MemoryStore' crate | sort | xargs sed -i 's/MemoryStore/InMemoryStore/g'
grep -rc 'InMemoryStore' crate | grep -v ':0$' | sort
grep -r 'MemoryStore' crate | grep -vc 'InMemoryStore'
