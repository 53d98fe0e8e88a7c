# diff with unmerged paths: combined diffs first, then the other files;
# name/stat forms, --base/--ours/--theirs, --cached, HEAD, exit codes.
git init -q -b main
printf 'a\nb\nc\n' > f.txt && echo x > g.txt && printf '1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n' > h.txt && git add . && git commit -q -m base
git checkout -q -b feature
printf 'a\nfeature\nc\n' > f.txt && sed -i 's/^2$/two/; s/^9$/nine/' h.txt && git commit -q -a -m feature
git checkout -q main
printf 'a\nmain\nc\n' > f.txt && sed -i 's/^2$/TWO/; s/^9$/NINE/' h.txt && git commit -q -a -m main
git merge -q feature; echo y >> g.txt
git diff
git diff --name-status
git diff --name-only
git diff --stat
git diff --theirs
git diff --base h.txt
git diff -2 --name-only
git diff --cached
git diff --cached --name-status
git diff HEAD --stat
git diff --exit-code >/dev/null; echo "rc $?"
git diff --quiet; echo "rc $?"
