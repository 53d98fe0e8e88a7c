# tar.gz with selected files.
tar -czf src.tgz crate/src web/src
tar -tzf src.tgz | grep -c '\.rs$'
mkdir out
tar -xzf src.tgz -C out
find out -type f | sort | head -n 4
cmp out/crate/src/lib.rs crate/src/lib.rs && echo "same lib.rs"
rm -rf out src.tgz
