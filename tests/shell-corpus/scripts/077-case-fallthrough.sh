# ;& falls through; ;;& keeps testing.
for n in 1 2 3; do
  case $n in
    1) echo "one" ;&
    2) echo "one or two" ;;
    *) echo "other" ;;
  esac
done
case "abc" in
  a*) echo "starts with a" ;;&
  *c) echo "ends with c" ;;&
  *) echo "always" ;;
esac
