# Lines of code per language.
for ext in rs js md json; do
  n=$(find . -name "*.$ext" -type f -exec cat {} + | wc -l)
  printf '%-5s %5d\n' "$ext" "$n"
done
