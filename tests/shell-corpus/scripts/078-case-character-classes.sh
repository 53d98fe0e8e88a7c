# Character classes and ranges in case patterns.
for c in a Z 5 _ ' '; do
  case "$c" in
    [[:lower:]]) echo "[$c] lower" ;;
    [[:upper:]]) echo "[$c] upper" ;;
    [0-9]) echo "[$c] digit" ;;
    [[:space:]]) echo "[$c] space" ;;
    *) echo "[$c] other" ;;
  esac
done
