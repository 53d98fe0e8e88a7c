# # ## % %% remove the shortest/longest matching prefix/suffix.
path="crate/src/store/memory.rs"
echo "${path#*/}"
echo "${path##*/}"
echo "${path%/*}"
echo "${path%%/*}"
echo "${path%.rs}"
file="archive.tar.gz"
echo "${file%.*} ${file%%.*} ${file#*.} ${file##*.}"
