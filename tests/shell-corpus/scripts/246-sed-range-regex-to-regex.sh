# Print a markdown section.
sed -n '/^## Concurrency/,/^## /{/^## Future/!p}' docs/design/architecture.md
