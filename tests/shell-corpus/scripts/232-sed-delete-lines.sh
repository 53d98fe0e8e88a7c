# d deletes lines.
sed '1d' data/hosts.txt | head -n 2
sed '/^$/d' data/messy.txt
sed '/^#/d; /^$/d' .env.example
sed '2,$d' LICENSE
