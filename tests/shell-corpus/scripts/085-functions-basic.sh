# Functions with arguments and return values.
greet() {
  echo "Hello, ${1:-stranger}! ($# args)"
}
greet
greet Alice
greet "Bob Smith" extra
function square { echo $(( $1 * $1 )); }
echo "$(square 7)"
