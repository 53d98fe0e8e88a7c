# Reading command output with getline.
awk 'BEGIN { while (("ls docs" | getline f) > 0) n++; close("ls docs"); print n, "entries" }'
