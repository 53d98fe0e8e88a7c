# Builds, with real git, the repository the crossing-over test imports:
# history on three branches, a merge, lightweight and annotated tags, an
# executable file and a subdirectory, everything packed by `git gc`
# (a pack, its index and packed-refs), then one more commit left loose
# and a staged change in the index. Deterministic under the corpus env
# (pinned identities; the dates are set here per commit).
t=1704067200
tick() { t=$((t + 3600)); export GIT_AUTHOR_DATE="$t +0000" GIT_COMMITTER_DATE="$t +0000"; }
git init -q -b main
mkdir -p src docs
printf '# Real repository\n\nMade by git itself.\n' > README.md
printf 'fn main() {\n    println!("hi");\n}\n' > src/main.rs
printf '#!/bin/sh\necho build\n' > build.sh
chmod +x build.sh
git add -A && tick && git commit -q -m "Initial import"
git tag v0.1
printf 'Usage notes.\n' > docs/usage.md
git add docs && tick && git commit -q -m "Add usage docs"
git checkout -q -b feature
printf 'pub fn helper() -> u32 {\n    42\n}\n' > src/lib.rs
git add src/lib.rs && tick && git commit -q -m "Add helper"
printf 'pub fn helper() -> u32 {\n    43\n}\n' > src/lib.rs
tick && git commit -q -a -m "Tune helper"
git checkout -q main
printf '# Real repository\n\nMade by git itself, packed by gc.\n' > README.md
tick && git commit -q -a -m "Reword README"
tick && git merge -q --no-edit feature
tick && git tag -a v1.0 -m "Version 1.0"
git branch topic HEAD~1
git -c pack.threads=1 gc -q
printf 'Loose after gc.\n' > docs/loose.md
git add docs/loose.md && tick && git commit -q -m "Add loose doc"
printf 'fn main() {\n    println!("hello");\n}\n' > src/main.rs
git add src/main.rs
