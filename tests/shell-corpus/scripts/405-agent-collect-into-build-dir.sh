# Collect artefacts into a build directory with a manifest.
mkdir -p dist/docs
cp docs/*.md dist/docs/ 2>/dev/null
cp web/package.json dist/
(cd dist && find . -type f -print0 | sort -z | xargs -0 sha256sum) > MANIFEST.tmp
mv MANIFEST.tmp dist/MANIFEST
wc -l < dist/MANIFEST
cut -c67- dist/MANIFEST
