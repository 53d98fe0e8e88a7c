# local hides globals; dynamic scoping reaches callees.
x=global
inner() { echo "inner sees $x"; }
outer() { local x=outer; inner; x=changed; echo "outer now $x"; }
outer
echo "after: $x"
counter() { local -i c=0; c+=5; echo "$c"; }
counter; counter
