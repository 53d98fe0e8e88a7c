# -r does not follow symlinks met while recursing; -R does.
grep -rl 'First release' . | sort
echo "---"
grep -Rl 'First release' . | sort
