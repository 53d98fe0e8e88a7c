# submodule add, status, and update --init in a clone (git-submodule is a shell script in 2.39).
git init -q -b main lib && cd lib && echo l > l.txt && git add l.txt && git commit -q -m lib && cd ..
git init -q -b main app && cd app && echo a > a.txt && git add a.txt && git commit -q -m app
git -c protocol.file.allow=always submodule add -q ../lib lib
echo "exit $?"
git status --short
git submodule status
cat .gitmodules
git commit -q -m "add lib"
cd .. && git clone -q app app2 && cd app2
git -c protocol.file.allow=always submodule update -q --init
echo "exit $?"
git submodule status
ls lib
