# Write files with here-documents.
mkdir -p generated
cat > generated/config.toml <<EOF
[server]
port = 9090
host = "0.0.0.0"
EOF
cat >> generated/config.toml <<'EOF'
[paths]
home = "$HOME"
EOF
cat generated/config.toml
