# *, ? and [...] globs, sorted.
echo docs/*.md
echo data/*.??v
echo crate/src/[ce]*.rs
echo data/[!a-m]*
