# -v drops matching lines.
grep -v '^#' data/hosts.txt | grep -v 'web$'
grep -cv '^$' data/messy.txt
grep -v -e '^\s*$' -e '^#' .env.example
