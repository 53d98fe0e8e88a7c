# Globs in variables expand when unquoted, not when quoted.
pat="docs/*.md"
echo "$pat"
echo $pat
set -f
echo $pat
set +f
ls $pat | wc -l
