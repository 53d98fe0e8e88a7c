# -regex on the whole path.
find . -regextype posix-extended -regex '.*/[a-z]+\.(rs|js)$' | sort | head -n 8
find . -regex '.*/q[0-9]\.csv' | sort
