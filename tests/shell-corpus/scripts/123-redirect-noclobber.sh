# set -C refuses to overwrite; >| forces.
echo one > guarded.txt
set -C
echo two > guarded.txt 2>/dev/null || echo "refused"
echo three >| guarded.txt
cat guarded.txt
