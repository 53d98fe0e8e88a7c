# += on strings and arrays.
s=abc
s+=def
echo "$s"
arr=(one)
arr+=(two three)
echo "${arr[*]} (${#arr[@]})"
path=/usr/bin
path+=:/bin
echo "$path"
