# Builtins that just return statuses.
true; echo $?
false; echo $?
:; echo $?
: this is ignored "${unused:=set by colon}"
echo "$unused"
