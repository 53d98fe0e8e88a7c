# Octal and hex escapes in printf.
printf '\101\102\n'
printf '\x48\x69\n'
printf '%s\n' 'no \x41 escape in %s'
printf '\\ backslash\n'
