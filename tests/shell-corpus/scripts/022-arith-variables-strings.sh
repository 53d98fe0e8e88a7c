# Variables inside arithmetic are evaluated recursively.
a=3
b=a+2
echo $((b * 2))
c="10"
echo $((c + 5))
unset d
echo $((d + 1))
arr=(4 5 6)
echo $((arr[1] * arr[2]))
