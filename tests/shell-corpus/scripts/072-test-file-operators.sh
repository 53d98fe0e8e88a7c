# File tests on the fixture.
for p in README.md docs current docs/latest.md data/empty.txt nope scripts/deploy.sh; do
  printf '%-18s' "$p"
  [[ -e $p ]] && printf ' exists'
  [[ -f $p ]] && printf ' file'
  [[ -d $p ]] && printf ' dir'
  [[ -L $p ]] && printf ' link'
  [[ -s $p ]] && printf ' nonempty'
  [[ -x $p && -f $p ]] && printf ' exec'
  echo
done
