# Trim whitespace with parameter expansion.
s="   padded text   "
trimmed="${s#"${s%%[![:space:]]*}"}"
trimmed="${trimmed%"${trimmed##*[![:space:]]}"}"
echo "[$trimmed]"
shopt -s extglob
t="${s##+([[:space:]])}"
echo "[${t%%+([[:space:]])}]"
