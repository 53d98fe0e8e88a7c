# Remove carriage returns.
sed 's/\r$//' data/windows.txt | od -c | head -n 3
sed -i 's/\r//' data/windows.txt
wc -c < data/windows.txt
