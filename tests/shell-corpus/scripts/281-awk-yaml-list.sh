# Pull a list out of simple YAML.
awk '/^warehouses:/ { on = 1; next } on && /- name:/ { n = $3 } on && /capacity:/ { print n, $2 }' config/app.yaml
