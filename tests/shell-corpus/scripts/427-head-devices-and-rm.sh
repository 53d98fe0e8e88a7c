# head on the endless devices and pipes: the bytes asked for, then a stop.
head -c 3000000 /dev/zero | wc -c
head -c 3000000 /dev/urandom > rand.bin; wc -c rand.bin
cat /dev/zero | head -c 70000 | od -An -c | head -2
cat /dev/urandom | tr -dc 'a-f0-9' | head -c 2000 | tr -d 'a-f0-9' | wc -c
head -c 12 < /dev/zero | od -An -tx1
printf 'a\nb\nc\nd' | head -n -2; echo
printf 'one\0two\0three\0' | head -z -n 2 | tr '\0' ,; echo
head -n 1 data/users.csv notes/todo.txt
head -c 5 missing.txt; echo "status $?"
head -n x data/users.csv; echo "status $?"
# rm: -f silences only a missing operand.
mkdir -p tree/sub; touch tree/sub/f
rm -f nothing-here; echo "rm -f missing: $?"
rm tree; echo "rm dir: $?"
rm -rv tree > /dev/null; echo "rm -r: $?"
rm rand.bin
