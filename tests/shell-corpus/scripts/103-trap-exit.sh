# An EXIT trap runs when the script ends.
cleanup() { echo "cleanup: removing scratch"; rm -f scratch.txt; }
trap cleanup EXIT
echo "data" > scratch.txt
echo "working"
exit 3
