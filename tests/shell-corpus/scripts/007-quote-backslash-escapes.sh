# Backslash escaping outside and inside double quotes.
echo \$HOME is not expanded
echo "\$HOME neither, but \\ is one backslash"
echo a\ b\ c
echo "line \
continued"
echo 'single \ stays'
