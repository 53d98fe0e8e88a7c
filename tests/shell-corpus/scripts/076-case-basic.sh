# case with alternatives and defaults.
for f in main.rs app.js guide.md data.csv Makefile; do
  case "$f" in
    *.rs) kind=rust ;;
    *.js|*.ts) kind=javascript ;;
    *.md) kind=markdown ;;
    Makefile|*.mk) kind=make ;;
    *) kind=other ;;
  esac
  echo "$f: $kind"
done
