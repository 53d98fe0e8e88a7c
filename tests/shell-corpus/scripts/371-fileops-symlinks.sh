# Create, read and remove symlinks.
ln -s crate/src src
ln -s ../data/users.csv docs/users.csv
readlink src docs/users.csv current
ls src | head -n 3
head -n 1 docs/users.csv
rm current
ls -d current 2>/dev/null || echo "current removed"
[[ -d data ]] && echo "data still there"
