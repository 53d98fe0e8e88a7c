# -exec ... \; runs once per file.
find docs -name '*.md' -type f -exec wc -l {} \; | sort -k2
