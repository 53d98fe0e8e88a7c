# printf %b and escapes, %q.
printf '%b\n' 'tab\there' 'new\nline'
printf 'a\tb\n'
printf '%q\n' "it's a test" 'a b' 'x$y'
printf '%c%c\n' hello world
printf '%5.2s|\n' abcdef
