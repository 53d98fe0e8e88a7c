# -i edits files in place.
sed -i 's/APP_PORT=8080/APP_PORT=9090/' .env.example
grep APP_PORT .env.example
sed -i '/^#/d' .env.example
head -n 1 .env.example
