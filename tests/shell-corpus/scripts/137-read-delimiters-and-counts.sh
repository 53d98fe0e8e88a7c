# read -d and -n and -a.
read -r -d ';' part <<< "first;second"
echo "$part"
read -r -n 3 three <<< "abcdef"
echo "$three"
read -r -a arr <<< "x y z"
echo "${#arr[@]} ${arr[1]}"
