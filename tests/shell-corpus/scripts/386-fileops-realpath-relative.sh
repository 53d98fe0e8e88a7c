# Resolve symlinks to relative paths.
realpath --relative-to=. docs/latest.md
realpath --relative-to=. current/users.csv
readlink -f current >/dev/null && echo "readlink -f resolves"
cd docs && realpath --relative-to=.. latest.md
