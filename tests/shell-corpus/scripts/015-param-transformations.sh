# ${x@Q} ${x@U} ${x@L} ${x@u} and ${x@A}
s="it's here"
echo "${s@Q}"
echo "${s@U}"
echo "${s@u}"
m="MiXeD"
echo "${m@L}"
n=42
echo "${n@A}"
