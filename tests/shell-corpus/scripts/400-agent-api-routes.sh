# Extract API routes and their handlers.
grep -o '\.route("[^"]*", [a-z]*(handlers::[a-z_]*)' crate/src/api/routes.rs | sed -E 's/\.route\("([^"]*)", ([a-z]+)\(handlers::([a-z_]+)\)/\2 \1 -> \3/' | awk '{ printf "%-7s %-22s %s\n", toupper($1), $2, $4 }'
