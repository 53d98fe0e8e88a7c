# Check membership.
langs=(rust js go python)
contains() {
  local x
  for x in "${@:2}"; do [[ $x == "$1" ]] && return 0; done
  return 1
}
contains js "${langs[@]}" && echo "has js"
contains java "${langs[@]}" || echo "no java"
