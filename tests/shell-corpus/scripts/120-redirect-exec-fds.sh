# exec opens file descriptors for the rest of the script.
exec 3> fd3.txt
echo "via fd 3" >&3
echo "again" >&3
exec 3>&-
cat fd3.txt
exec 4< data/hosts.txt
read -r header <&4
read -r first <&4
exec 4<&-
echo "$header / $first"
