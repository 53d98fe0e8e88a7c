# nl, tac, rev, fold.
nl notes/todo.txt | head -n 3
tac data/hosts.txt | head -n 2
rev <<< "inventory"
echo "abcdefghijklmnopqrstuvwxyz" | fold -w 10
