# declare -i, -l, -u.
declare -i n=5
n+=10
n="n*2"
echo "$n"
declare -l lower="MiXeD Case"
declare -u upper="MiXeD Case"
echo "$lower / $upper"
