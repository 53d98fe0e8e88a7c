# { } runs in the current shell; ( ) in a subshell.
y=1
{ y=2; }
echo "after braces: $y"
( y=3 )
echo "after parens: $y"
{ echo a; echo b; } | wc -l
