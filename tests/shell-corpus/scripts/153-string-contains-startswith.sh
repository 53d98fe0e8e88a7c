# Substring tests.
s="inventory-web"
[[ $s == *web* ]] && echo "contains web"
[[ $s == inv* ]] && echo "starts with inv"
[[ $s == *-web ]] && echo "ends with -web"
case $s in *-*) echo "has a dash at ${s%%-*}" ;; esac
[[ ${s/web/} != "$s" ]] && echo "replace shows membership"
