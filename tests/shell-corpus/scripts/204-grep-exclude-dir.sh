# Skip directories.
grep -rl 'inventory' . --exclude-dir=data --exclude-dir=web | sort
