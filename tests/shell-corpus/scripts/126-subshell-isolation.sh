# Subshells do not leak variables, cd or set options.
x=1
( x=2; cd docs; echo "inside: x=$x dir=${PWD##*/}" )
echo "outside: x=$x dir=${PWD##*/}"
(set -e; false; echo never)
echo "parent continues"
