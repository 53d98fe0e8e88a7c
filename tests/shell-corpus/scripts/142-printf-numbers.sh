# Number formats.
printf '%d\n' 0x1f 010 -5 "'A"
printf '%+d % d\n' 5 5
printf '%08.3f\n' 3.14159
printf '%-6d|\n' 42
printf '%i\n' 7
printf '%u\n' 3000000000
