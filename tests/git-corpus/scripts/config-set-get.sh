# Repository config: set, get, overwrite, values with spaces, the file.
git init -q -b main
git config user.name "Jane Doe"
git config user.email jane@example.com
git config core.autocrlf false
git config alias.st status
git config user.name
git config --get user.email
git config user.name "Jane Q. Doe"
git config user.name
git config section.sub.key "a value"
git config --get section.sub.key
cat .git/config
