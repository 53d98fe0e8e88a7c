# diff output formats.
cp config/app.ini app.ini.orig
sed -i 's/workers = 4/workers = 8/; /^audit/d' config/app.ini
diff app.ini.orig config/app.ini
echo "status $?"
diff -q app.ini.orig config/app.ini
diff -q README.md README.md && echo "identical"
rm app.ini.orig
