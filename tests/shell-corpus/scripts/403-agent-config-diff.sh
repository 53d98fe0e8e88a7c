# Compare INI and YAML settings.
a=$(awk -F' = ' '$1 == "port" { print $2 }' config/app.ini)
b=$(awk '/^  port:/ { print $2 }' config/app.yaml)
[[ $a == "$b" ]] && echo "ports agree: $a"
wi=$(grep -E '^workers' config/app.ini | cut -d= -f2 | tr -d ' ')
wy=$(grep -E '^  workers' config/app.yaml | cut -d: -f2 | tr -d ' ')
echo "workers ini=$wi yaml=$wy"
