# Parse an INI file into section.key=value.
awk -F' = ' '/^\[/ { gsub(/[][]/, ""); sec = $0; next } NF == 2 { print sec "." $1 "=" $2 }' config/app.ini
