# Comment out lines in a config file.
sed -i 's/^\(audit = .*\)/# \1/' config/app.ini
sed -i '/^\[features\]/,/^$/s/^export = true/export = false/' config/app.ini
tail -n 4 config/app.ini
