# Repeated -m makes paragraphs; %s, %b and %B show the parts.
git init -q -b main
echo a > a.txt && git add a.txt
git commit -q -m "Subject line" -m "Body paragraph one." -m "Body paragraph two."
git log -1 --format=%s
echo ---
git log -1 --format=%b
echo ---
git log -1 --format=%B
echo ---
git cat-file -p HEAD
