# --complement and -s.
cut -d, --complement -f3 data/users.csv | head -n 2
printf 'a:b\nno delimiter\nc:d\n' | cut -d: -f2 -s
cut -d: -f1 --output-delimiter=' ' <<< "x:y:z"
