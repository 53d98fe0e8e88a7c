# mv -n, -v, -t, -T and the errors GNU mv gives.
echo a > a.txt; echo b > b.txt
mv -n a.txt b.txt; cat b.txt; ls a.txt
mv -v a.txt c.txt
mkdir box
mv -v -t box c.txt b.txt
ls box
mv box box/inner; echo "into itself: $?"
mkdir other; echo x > other/f
mv -T other box; echo "onto a non-empty dir: $?"
mv missing.txt box; echo "missing: $?"
touch plain; mv box plain; echo "dir over file: $?"
mv box/c.txt box/c.txt; echo "same: $?"
mv other renamed; ls renamed
rm -r box renamed plain
