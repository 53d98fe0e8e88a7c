# Author and committer dates in several formats git accepts.
git init -q -b main
echo 1 > f && git add f
GIT_AUTHOR_DATE="2023-06-15T10:30:00+02:00" GIT_COMMITTER_DATE="2023-06-15T10:30:00+02:00" git commit -q -m iso
echo 2 > f
GIT_AUTHOR_DATE="1700000000 +0100" GIT_COMMITTER_DATE="1700000000 -0500" git commit -q -a -m raw
echo 3 > f
GIT_AUTHOR_DATE="2024-02-29 23:59:59 +0000" GIT_COMMITTER_DATE="2024-02-29 23:59:59 +0000" git commit -q -a -m spaced
git log --format='%H%n%ad%n%cd%n%ai%n%ci%n%at %ct'
git log --date=iso --format='%ad | %cd'
git log --date=short --format='%ad'
git log --date=rfc --format='%ad'
