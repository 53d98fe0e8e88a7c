# zip keeps modes and -j drops directories; unzip -n keeps existing files.
mkdir -p pkg/bin
printf '#!/bin/sh\necho run\n' > pkg/bin/run.sh
chmod 755 pkg/bin/run.sh
echo notes > pkg/notes.txt
zip -qr pkg.zip pkg
zip -qj flat.zip pkg/bin/run.sh pkg/notes.txt
unzip -Z1 flat.zip | sort
mkdir out
unzip -q pkg.zip -d out
stat -c '%a %n' out/pkg/bin/run.sh
out/pkg/bin/run.sh
echo mine > out/pkg/notes.txt
unzip -q -n pkg.zip -d out
cat out/pkg/notes.txt
rm -r pkg out pkg.zip flat.zip
