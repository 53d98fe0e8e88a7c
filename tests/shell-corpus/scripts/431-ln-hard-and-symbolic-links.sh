# ln: hard links share one file (a write through either name shows through
# both; removing one name keeps the other), symbolic ones with -s; the errors
# and -v lines as coreutils prints them.
mkdir lnt && cd lnt
echo hi > a; ln a b; echo more >> b; cat a
ln a b 2>&1; echo "exit $?"
ln -f a b; echo "exit $?"
ln -v a c
mkdir d; ln a d; ls d
ln d e 2>&1; echo "exit $?"
ln missing x 2>&1; echo "exit $?"
ln -s a s1; readlink s1; ln -sv a s2
ln a b c nodir 2>&1; echo "exit $?"
ln 2>&1; echo "exit $?"
ln -t d b c; ls d
rm a; cat b
ln -z a 2>&1; echo "exit $?"
cd .. && rm -r lnt
