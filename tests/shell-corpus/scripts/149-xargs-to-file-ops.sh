# xargs to copy and delete files.
mkdir -p backup
ls docs/*.md | xargs -I{} cp {} backup/
ls backup | wc -l
find backup -name '*.md' -print0 | xargs -0 rm
ls backup | wc -l
rmdir backup
