# -path, -not and -prune.
find . -path ./web -prune -o -name '*.md' -print | sort
echo "---"
find crate -type f -not -name '*.rs' | sort
echo "---"
find . -path '*/src/*' -name 'mod.rs' | sort
