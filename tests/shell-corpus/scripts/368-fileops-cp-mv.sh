# Copy and move files.
cp README.md README.copy.md
mv README.copy.md docs/readme.md
cp -r config config.bak
mv config.bak/app.yaml config.bak/app.yml
ls docs config.bak
