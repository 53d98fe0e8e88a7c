# An agent's day: branch, commit twice, merge back, delete the branch.
t=1704067200
tick() { t=$((t + 600)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
printf '# App\n' > README.md && mkdir src && echo 'print("hi")' > src/app.py
git add -A && tick && git commit -q -m "Initial commit"
git switch -q -c add-tests
mkdir tests && echo 'assert True' > tests/test_app.py
git add tests && tick && git commit -q -m "Add tests"
echo 'print("hello")' > src/app.py
tick && git commit -q -am "Say hello"
git switch -q main
git merge -q add-tests
git branch -d add-tests
git log --format='%h %ad %s' --date=iso
git ls-files
git status
