# gzip and gunzip keep content intact.
cp data/access.log access.copy
gzip access.copy
ls access.copy* 
gunzip -c access.copy.gz | wc -l
gunzip access.copy.gz
cmp access.copy data/access.log && echo "same after round trip"
gzip -k notes/todo.txt
zcat notes/todo.txt.gz | head -n 2
rm access.copy notes/todo.txt.gz
