# Recursive grep sees dotfiles.
grep -rn 'APP_PORT' . | sort
grep -rl 'indent' . | sort
