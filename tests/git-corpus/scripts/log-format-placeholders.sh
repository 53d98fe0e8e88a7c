# --format/--pretty placeholders: ids, names, emails, dates, parents,
# subject and body, literal text and %n.
t=1704067200
tick() { t=$((t + 86400)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
echo 1 > f && git add f && tick && git commit -q -m "First subject" -m "First body"
echo 2 > f && tick && git commit -q -a -m "Second subject"
git log --format='%H %h'
git log --format='%T %t | %P | %p'
git log --format='%an|%ae|%cn|%ce'
git log --format='%ad|%cd|%at|%ct'
git log --format='%ai|%ci'
git log --format='%s|%b|'
git log --format='subject: %s%nbody: %b%n--'
git log --pretty='format:%h %s'
echo
git log --pretty='tformat:%h %s'
git log --format='%%|%x41|%e|end'
