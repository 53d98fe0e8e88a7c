# -iname and -o.
find . -iname 'readme*' | sort
find data \( -name '*.csv' -o -name '*.tsv' \) | sort
