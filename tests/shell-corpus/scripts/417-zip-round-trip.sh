# zip -r/-q, unzip -l/-Z1/-p/-o/-d: an archive made here round-trips through unzip.
zip -qr docs.zip docs
unzip -Z1 docs.zip | sort
unzip -l docs.zip | awk 'NR > 3 && $NF != "-------" { print $1, $NF }' | sort
mkdir restore
unzip -q docs.zip -d restore
diff -r docs restore/docs && echo "identical after unzip"
unzip -p docs.zip docs/index.md | head -n 2
echo changed > restore/docs/index.md
unzip -q -o docs.zip docs/index.md -d restore
cmp docs/index.md restore/docs/index.md && echo "overwritten with -o"
unzip -q docs.zip nothing.md -d restore; echo "no match: $?"
zip -q docs.zip data/hosts.txt
unzip -Z1 docs.zip | grep -c .
zip -q none.zip missing.txt; echo "nothing to do: $?"
unzip -q missing.zip; echo "no archive: $?"
rm -r restore docs.zip
