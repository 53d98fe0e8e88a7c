# A small subcommand dispatcher.
run() {
  case "${1:-}" in
    list) ls docs | head -n 3 ;;
    count) ls docs | wc -l ;;
    help|--help|-h) echo "usage: run list|count" ;;
    "") echo "no command" >&2; return 2 ;;
    *) echo "unknown: $1" >&2; return 1 ;;
  esac
}
run list; run count; run -h
run bogus; echo "status $?"
run; echo "status $?"
