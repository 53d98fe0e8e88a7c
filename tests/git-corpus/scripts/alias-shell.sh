# aliases: to a git command and to a shell command with arguments.
git init -q -b main r && cd r
echo a > a && git add a && git commit -q -m first
git config alias.st 'status -s'
git config alias.hello '!echo hello "$1" from $(git rev-parse --abbrev-ref HEAD)'
git config alias.last 'log -1 --format=%s'
echo b > b
git st
git hello world
git last
