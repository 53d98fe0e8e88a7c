# 2> and 2>&1 and &> and 2>/dev/null.
{ echo "to stdout"; echo "to stderr" >&2; } 2> err.txt
echo "err.txt: $(cat err.txt)"
{ echo "out"; echo "err" >&2; } > both.txt 2>&1
sort both.txt
{ echo "o2"; echo "e2" >&2; } &> all.txt
sort all.txt
ls missing 2>/dev/null || echo "silenced"
rm err.txt both.txt all.txt
