# Fan out with tee.
grep ERROR data/error.log | tee errors.txt | wc -l
grep WARN data/error.log | tee warnings.txt > /dev/null
cat errors.txt warnings.txt | wc -l
