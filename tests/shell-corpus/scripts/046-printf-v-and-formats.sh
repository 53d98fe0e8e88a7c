# printf -v assigns; %s %d %05d %-8s %x %o %e %%
printf -v padded '%05d' 42
echo "$padded"
printf '[%-8s][%8s]\n' left right
printf '%d%%\n' 75
printf '%x %X %o\n' 3054 3054 8
printf '%.3f %.1e\n' 3.14159 12345.678
printf '%s=%d\n' a 1 b 2 c 3
