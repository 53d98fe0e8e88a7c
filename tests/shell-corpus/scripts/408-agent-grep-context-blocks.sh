# Show each handler with two lines of context, without separators.
grep -n -A 2 --no-group-separator '^pub async fn' crate/src/api/handlers.rs | cut -c1-60
