# Variables set in a pipeline's last part are lost (no lastpipe).
n=0
printf 'a\nb\nc\n' | while read -r _; do ((n++)); done
echo "n after pipeline: $n"
shopt -s lastpipe
printf 'a\nb\nc\n' | while read -r _; do ((n++)); done
echo "n with lastpipe: $n"
