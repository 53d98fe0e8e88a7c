# --global writes $HOME/.gitconfig, works outside a repository, and is
# read inside one; the repository's own value wins.
git config --global user.name "Global Name"
git config --global user.email global@example.com
git config --global --get user.name
cat "$HOME/.gitconfig"
git init -q -b main repo && cd repo
git config user.name
git config user.name "Local Name"
git config user.name
git config --global user.name
