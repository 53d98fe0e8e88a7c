# $NF and $(NF-1).
awk '{ print $NF, $(NF - 1) }' data/hosts.txt | tail -n 3
awk -F/ '{ print $NF }' <<< "crate/src/store/memory.rs"
