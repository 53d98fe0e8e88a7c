# The status of an assignment from $() is the command's status.
out=$(grep -c nomatchxyz README.md)
echo "out=$out status=$?"
out=$(grep -c Inventory README.md)
echo "out=$out status=$?"
if v=$(false); then echo yes; else echo "no ($v)"; fi
