# [[ ]] unary tests: links, execute bits, options, in ifs, negations and lists.
echo data > plain
echo 'echo hi' > tool.sh
ln -s plain link
ln -s missing dangling
mkdir -p sub
[[ -L link ]] && echo "link is a link"
[[ -h dangling ]] && echo "dangling is a link"
[[ -L plain ]] || echo "plain is not a link"
[[ ! -L sub ]] && echo "sub is not a link"
[[ -x tool.sh ]] || echo "tool.sh not executable yet"
chmod +x tool.sh
if [[ -x tool.sh && -f tool.sh ]]; then echo "tool.sh executable"; fi
[[ -x sub ]] && echo "sub searchable"
[[ -x missing ]] || echo "missing not executable"
unset nothing
[[ -x $nothing ]] || echo "empty operand is false"
[[ -L "$nothing" ]] || echo "empty link operand is false"
f=link; [[ -L $f && -e $f ]] && echo "via variable"
[[ -p plain ]] || echo "no fifo"
[[ -S plain ]] || echo "no socket"
[[ -O plain ]] && echo "owned"
[[ -O missing ]] || echo "missing not owned"
[[ -o errexit ]] || echo "errexit off"
set -u
[[ -o nounset ]] && echo "nounset on"
set +u
[[ -o nounset ]] || echo "nounset off"
[[ -o nosuchoption ]] || echo "unknown option off"
echo '[[ -L x ]]'
cat <<'EOF2'
[[ -L inside-a-heredoc ]]
EOF2
rm -r plain tool.sh link dangling sub
