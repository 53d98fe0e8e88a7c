# Scaffold a new module with files from heredocs.
mkdir -p crate/src/report
cat > crate/src/report/mod.rs <<'EOF'
//! Stock reports.

pub mod summary;
EOF
cat > crate/src/report/summary.rs <<'EOF'
use crate::model::Item;

pub fn total(items: &[Item]) -> u64 {
    items.iter().map(Item::total_value).sum()
}
EOF
sed -i 's/^pub mod model;/pub mod model;\npub mod report;/' crate/src/lib.rs
grep -n '^pub mod' crate/src/lib.rs
find crate/src/report -type f | sort
