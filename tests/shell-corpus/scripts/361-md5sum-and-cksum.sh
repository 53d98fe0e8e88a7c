# Other checksums.
md5sum README.md
echo -n "hello" | md5sum
cksum LICENSE
