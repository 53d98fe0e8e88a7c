# Parameter operations apply to each element.
files=(main.rs lib.rs config.rs)
echo "${files[@]%.rs}"
echo "${files[@]/#/src/}"
echo "${files[@]^^}"
echo "${#files[1]}"
