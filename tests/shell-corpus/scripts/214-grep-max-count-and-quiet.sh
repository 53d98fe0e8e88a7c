# -m stops early; -q only sets the status.
grep -m 2 -n 'shipped' data/orders.csv
if grep -q 'sqlite' crate/Cargo.toml; then echo "uses sqlite"; fi
grep -q 'postgres' crate/Cargo.toml || echo "no postgres"
