# Hidden files.
find . -name '.*' -type f | sort
find . -maxdepth 1 -name '.*' ! -name '.' | wc -l
