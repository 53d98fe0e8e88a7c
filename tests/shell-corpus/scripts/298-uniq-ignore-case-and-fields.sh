# uniq -i and -f.
printf 'Apple\napple\nAPPLE\nbanana\n' | uniq -i -c
printf 'x red\ny red\nz blue\n' | uniq -f 1 -c
