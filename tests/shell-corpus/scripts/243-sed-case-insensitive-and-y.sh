# The I flag and y///.
echo "Hello HELLO hello" | sed 's/hello/bye/gI'
echo "hello world" | sed 'y/abcdefghijklmnopqrstuvwxyz/ABCDEFGHIJKLMNOPQRSTUVWXYZ/'
sed 's/.*/\U&/' notes/ideas.txt | head -n 2
sed -E 's/\b(.)/\u\1/g' notes/ideas.txt | head -n 3
