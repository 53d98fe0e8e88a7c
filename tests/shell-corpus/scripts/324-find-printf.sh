# -printf with relative paths and sizes.
find docs -type f -printf '%P %s\n' | sort
find . -maxdepth 1 -type l -printf '%f -> %l\n' | sort
