# Count files per extension.
find . -type f -name '*.*' | sed 's/.*\.//' | sort | uniq -c | sort -k1,1nr -k2
