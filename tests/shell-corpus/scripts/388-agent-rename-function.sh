# Rename a function everywhere and show what changed.
before=$(grep -rn 'slugify' crate | sort)
grep -rl 'slugify' crate | xargs sed -i 's/\bslugify\b/to_slug/g'
after=$(grep -rn 'to_slug' crate | sort)
echo "$before" | wc -l
echo "$after" | cut -d: -f1,2 | tr '\n' ' '; echo
grep -rc 'slugify' crate | grep -v ':0$' | sort || echo "no slugify left"
