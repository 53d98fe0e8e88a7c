# Recursive functions.
fact() {
  if (( $1 <= 1 )); then echo 1; else echo $(( $1 * $(fact $(( $1 - 1 ))) )); fi
}
fib() {
  local n=$1
  if ((n < 2)); then echo "$n"; return; fi
  echo $(( $(fib $((n - 1))) + $(fib $((n - 2))) ))
}
echo "10! = $(fact 10)"
echo "fib 12 = $(fib 12)"
