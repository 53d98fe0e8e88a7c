# ls -S sorts by size.
ls -S data | head -n 5
ls -Sr notes
