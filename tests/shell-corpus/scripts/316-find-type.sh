# -type f, d and l.
find . -type d | sort
echo "---"
find . -type l | sort
echo "---"
find data -type f | wc -l
