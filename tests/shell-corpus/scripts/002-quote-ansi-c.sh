# $'...' understands backslash escapes.
printf '%s\n' $'a\tb' $'line1\nline2' $'quote\'s' $'\x41\x42\x43' $'\101'
echo $'bell-free \\ backslash'
