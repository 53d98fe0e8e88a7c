# init.defaultBranch from the global config file under $HOME.
git config --global init.defaultBranch trunk
cat "$HOME/.gitconfig"
git init
git branch --show-current
git -c init.defaultBranch=other init -q again
cat again/.git/HEAD
