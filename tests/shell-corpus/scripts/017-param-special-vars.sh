# $? and $# and $- (without printing anything host specific).
true
echo "true -> $?"
false
echo "false -> $?"
(exit 42)
echo "subshell -> $?"
set -- x y
echo "args $#"
case $- in *h*) echo "hashall on" ;; *) echo "hashall off" ;; esac
