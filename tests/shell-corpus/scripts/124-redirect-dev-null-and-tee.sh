# tee writes to files and stdout.
echo "logged line" | tee t1.txt t2.txt > /dev/null
cat t1.txt t2.txt
printf 'a\nb\n' | tee -a t1.txt | wc -l
cat t1.txt
