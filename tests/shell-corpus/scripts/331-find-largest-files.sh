# The largest files, by byte count.
find . -type f -exec wc -c {} + | grep -v ' total$' | sort -k1,1nr -k2 | head -n 5
