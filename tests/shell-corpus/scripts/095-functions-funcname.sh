# FUNCNAME shows the call stack.
a() { b; }
b() { echo "${FUNCNAME[0]} called from ${FUNCNAME[1]}"; echo "depth ${#FUNCNAME[@]}"; }
a
