# ${x:-d} ${x-d} ${x:=d} ${x:+alt}
unset a
b=""
c=set
echo "1 ${a:-dflt} ${b:-dflt} ${c:-dflt}"
echo "2 ${a-dflt} [${b-dflt}] ${c-dflt}"
echo "3 ${a:+alt} [${b:+alt}] ${c:+alt}"
: "${a:=assigned}"
echo "4 $a"
: "${b:=filled}"
echo "5 $b"
