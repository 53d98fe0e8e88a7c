# Arrays filled from command output.
files=($(ls docs))
echo "${#files[@]} entries"
mapfile -t lines < notes/todo.txt
echo "${#lines[@]} lines; third: ${lines[2]}"
readarray -t rs < <(find crate -name '*.rs' | sort)
echo "first: ${rs[0]}"
echo "last: ${rs[-1]}"
