# Directories and how many files they hold.
find . -type f | sed 's|/[^/]*$||' | sort | uniq -c | sort -k2
