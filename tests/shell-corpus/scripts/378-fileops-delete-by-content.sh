# Delete files that contain a marker.
grep -rl 'Do not edit' data | xargs rm -f
grep -rl 'ADR-004' docs | while read -r f; do rm "$f"; done
find data/archive docs/design -type f | sort
