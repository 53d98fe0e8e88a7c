# mv over an existing file, and -n.
echo new > data/new.txt
mv data/new.txt data/hosts.txt
cat data/hosts.txt
echo other > other.txt
mv -n other.txt README.md
head -n 1 README.md
ls other.txt
