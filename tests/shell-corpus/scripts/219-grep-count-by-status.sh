# Count HTTP statuses in an access log.
for code in 200 201 204 304 400 403 404 409 500; do
  printf '%s %s\n' "$code" "$(grep -c "\" $code " data/access.log)"
done
