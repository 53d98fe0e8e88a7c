# Unusual but valid names and values.
_private=1
CamelCase=2
x123=3
__double__=4
echo "$_private $CamelCase $x123 $__double__"
v="semi;colon&amp|pipe"
echo "$v"
