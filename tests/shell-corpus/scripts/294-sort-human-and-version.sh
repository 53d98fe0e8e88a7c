# -h understands K/M/G, -V version numbers.
printf '10K\n2M\n512\n1G\n3K\n' | sort -h
printf 'v1.10\nv1.2\nv1.9\nv2.0\n' | sort -V
