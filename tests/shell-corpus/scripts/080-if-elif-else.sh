# if/elif/else chains with commands as conditions.
check() {
  if grep -q "$1" README.md; then
    echo "$1: in README"
  elif grep -rq "$1" docs; then
    echo "$1: in docs"
  else
    echo "$1: nowhere"
  fi
}
check Inventory
check ADR-001
check kubernetes
