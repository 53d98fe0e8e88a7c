# -i.bak keeps a backup.
sed -i.bak 's/info/debug/' config/app.ini
diff config/app.ini.bak config/app.ini
ls config
