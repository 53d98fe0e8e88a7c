# The built-in --pretty formats: short, medium, full, fuller, raw, email.
git init -q -b main
echo 1 > f && git add f && git commit -q -m "The subject" -m "The body."
git log --pretty=short
git log --pretty=medium
git log --pretty=full
git log --pretty=fuller
git log --pretty=raw
git log --format=email
