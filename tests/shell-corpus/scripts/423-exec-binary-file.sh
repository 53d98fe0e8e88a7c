# Running a binary file (not a script) fails with 126, not a syntax error.
printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\003\000' > prog
chmod +x prog
./prog 2>/dev/null; echo "status $?"
printf 'echo from script\n' > script.sh
chmod +x script.sh
./script.sh; echo "status $?"
rm prog script.sh
