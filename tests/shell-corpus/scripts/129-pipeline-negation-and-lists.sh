# ! negates; && and || short-circuit.
! grep -q xyz README.md && echo "xyz absent"
true && echo "and-1" || echo "or-1"
false && echo "and-2" || echo "or-2"
{ false || true; } && echo "group ok"
mkdir -p a/b && cd a/b && echo "in ${PWD##*/}" && cd ../.. && rmdir a/b a
ls -d a 2>/dev/null || echo "a removed"
