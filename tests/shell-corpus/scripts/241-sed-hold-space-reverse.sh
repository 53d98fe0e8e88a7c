# Reverse lines with the hold space (tac).
sed -n '1!G;h;$p' notes/todo.txt
