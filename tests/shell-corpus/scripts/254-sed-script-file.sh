# A sed script in a file.
cat > fix.sed <<'EOF'
s/\t/ | /g
1s/^/| /
1s/$/ |/
EOF
head -n 3 data/products.tsv | sed -f fix.sed
rm fix.sed
