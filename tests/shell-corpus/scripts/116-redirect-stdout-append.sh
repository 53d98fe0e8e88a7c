# > truncates, >> appends.
echo "first" > out.txt
echo "second" >> out.txt
echo "third" > out.txt
echo "fourth" >> out.txt
cat out.txt
: > empty.out
[[ -f empty.out && ! -s empty.out ]] && echo "empty.out is empty"
