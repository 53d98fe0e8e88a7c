# Limit the depth.
find . -maxdepth 1 | sort
echo "---"
find crate -mindepth 2 -maxdepth 2 -type d | sort
