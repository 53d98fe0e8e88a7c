# Several -e patterns and a pattern file.
grep -e 'pub fn' -e 'pub struct' crate/src/model.rs
printf 'Widget\nHammer\nDrill\n' > patterns.txt
grep -f patterns.txt data/products.tsv | cut -f1,2
rm patterns.txt
