# * skips dotfiles unless dotglob is set.
echo *
echo .[!.]*
shopt -s dotglob
echo *
