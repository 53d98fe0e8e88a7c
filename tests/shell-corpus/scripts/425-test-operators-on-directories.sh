# -s, -x, -r, -w and -L on directories, files and links, with [ ] and [[ ]].
mkdir -p dir
echo data > file
printf '' > empty
chmod 644 file
ln -s file link
for p in dir file empty link missing; do
  printf '%s:' "$p"
  [[ -s $p ]] && printf ' s'
  [[ -x $p ]] && printf ' x'
  [[ -L $p ]] && printf ' L'
  [ -s "$p" ] && printf ' [s]'
  [ -x "$p" ] && printf ' [x]'
  [ -L "$p" ] && printf ' [L]'
  echo
done
rm -r dir file empty link
