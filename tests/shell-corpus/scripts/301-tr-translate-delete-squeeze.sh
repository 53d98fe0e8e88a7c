# tr sets, -d, -s, -c.
echo "hello world" | tr 'lo' '01'
echo "a1b2c3" | tr -d '0-9'
echo "too    many   spaces" | tr -s ' '
echo "keep-only_letters 123" | tr -cd 'a-z\n'
tr ',' '\t' < data/users.csv | head -n 2
