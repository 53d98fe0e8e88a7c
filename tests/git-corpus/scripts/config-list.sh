# --list in a repository (local after global), and --get-regexp.
git config --global user.name "Global User"
git config --global color.ui never
git init -q -b main
git config user.email local@example.com
git config --list
echo ---
git config --list --local
echo ---
git config --list --global
echo ---
git config --get-regexp '^user\.'
