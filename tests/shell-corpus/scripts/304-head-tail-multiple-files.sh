# Headers when given several files.
head -n 2 notes/todo.txt notes/ideas.txt
tail -n 1 -q notes/todo.txt notes/ideas.txt
