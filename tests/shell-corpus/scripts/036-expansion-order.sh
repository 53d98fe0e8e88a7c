# Brace expansion happens before parameter expansion.
x=3
echo {1..$x}
eval echo {1..$x}
y='a b'
for w in $y{1,2}; do echo "w=$w"; done
for w in "$y"{1,2}; do echo "q=$w"; done
