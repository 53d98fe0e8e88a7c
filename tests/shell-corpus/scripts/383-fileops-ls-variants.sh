# ls flags with deterministic output.
ls
ls -a | head -n 5
ls -d */
ls -p docs
ls -1 crate/src | head -n 4
ls -R docs
