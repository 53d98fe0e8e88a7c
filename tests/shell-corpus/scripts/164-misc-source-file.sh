# source reads a file into the current shell.
cat > lib.sh <<'EOF'
LIB_NAME=helpers
shout() { echo "${1^^}!"; }
EOF
source ./lib.sh
echo "$LIB_NAME"
shout hello
. ./lib.sh
rm lib.sh
