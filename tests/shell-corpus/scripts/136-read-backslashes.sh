# read without -r interprets backslashes.
printf 'a\\tb c\\\\d\n' > bs.txt
read -r raw < bs.txt
read cooked < bs.txt
echo "raw: $raw"
echo "cooked: $cooked"
rm bs.txt
