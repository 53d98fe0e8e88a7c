# -F treats the pattern literally.
grep -F '$(' scripts/*.sh
grep -F '[x]' notes/todo.txt
grep -c '[x]' notes/todo.txt
