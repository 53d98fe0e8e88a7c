# Clean generated files and list what is left.
mkdir -p crate/target/debug web/node_modules/x
touch crate/target/debug/inventory web/node_modules/x/index.js
find . \( -name target -o -name node_modules \) -type d -prune -exec rm -rf {} +
find . -type d \( -name target -o -name node_modules \) | wc -l
find . -type f | wc -l
