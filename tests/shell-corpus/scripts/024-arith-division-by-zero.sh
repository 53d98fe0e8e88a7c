# Division by zero is an error; the script goes on.
echo "start"
x=0
( result=$(( 10 / x )) ) 2>/dev/null
echo "after: status $?"
echo "end"
