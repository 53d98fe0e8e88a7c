# declare -p shows arrays.
a=(x "y z")
declare -A m=([k]=v)
declare -p a
declare -p m
s="quoted \"str\""
declare -p s
