# diff -ru and -rN between trees: per-file headers, new and removed files.
cp -r crate crate-b
sed -i 's/fn /pub fn /' crate-b/src/main.rs
echo "// new" > crate-b/src/extra.rs
rm -f crate-b/Cargo.lock
diff -ru crate crate-b | grep -v '^+++ \|^--- '
echo "status ${PIPESTATUS[0]}"
diff -rN crate crate-b | grep '^diff\|^[0-9]'
rm -r crate-b
