# Restrict a recursive grep to some file types.
grep -rn --include='*.js' 'export function' . | sort
grep -rl --include='*.md' --include='*.txt' -i 'sqlite' . | sort
