# What init writes that other tools read: HEAD, config, the refs and
# objects directories.
git init -q -b main
cat .git/HEAD
cat .git/config
ls .git/refs
ls .git/objects
git config --list --local
