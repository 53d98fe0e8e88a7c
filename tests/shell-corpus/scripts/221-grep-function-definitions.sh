# List Rust functions per file.
grep -rn '^\s*\(pub \)\?\(async \)\?fn ' crate/src | sed 's/(.*//' | sort -t: -k1,1 -k2,2n
