# break and continue, also with levels.
for i in 1 2 3 4 5 6; do
  ((i % 2 == 0)) && continue
  ((i > 4)) && break
  echo "odd $i"
done
for a in 1 2 3; do
  for b in x y z; do
    [[ $b == y ]] && continue 2
    [[ $a == 3 ]] && break 2
    echo "$a$b"
  done
done
