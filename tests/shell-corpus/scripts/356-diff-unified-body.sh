# Unified diff without the timestamped header.
cp docs/api.md api.before
sed -i 's/Returns 201./Returns 201 Created./' docs/api.md
diff -u api.before docs/api.md | tail -n +3
rm api.before
