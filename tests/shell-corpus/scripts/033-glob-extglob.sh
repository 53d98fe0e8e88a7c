# Extended patterns.
shopt -s extglob
echo crate/src/!(lib|main).rs
echo data/*.@(csv|tsv)
echo notes/+([a-z]).txt
f="report-2023.csv"
echo "${f%%+([0-9]).csv}"
case "$f" in *([a-z])-+([0-9]).csv) echo "matched extglob case" ;; esac
