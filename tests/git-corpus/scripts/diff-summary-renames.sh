# diff --summary, --stat and similarity renames (-M) with modes.
git init -q -b main r && cd r
seq 1 50 > long.txt && echo x > gone.txt && echo s > script.sh && git add . && git commit -q -m a
git mv long.txt moved.txt && sed -i 's/^25$/twenty-five/' moved.txt
git rm -q gone.txt && chmod +x script.sh && echo n > new.txt && git add -A
git diff --cached --summary
git diff --cached -M --stat
git diff --cached -M --name-status
git commit -q -m b
git log -1 --summary --format=%s | cat
git diff HEAD~1 -M50% --shortstat
