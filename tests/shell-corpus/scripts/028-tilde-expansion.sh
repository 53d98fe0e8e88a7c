# ~ expands to $HOME; compare instead of printing it.
[[ ~ == "$HOME" ]] && echo "tilde is HOME"
p=~/projects
echo "${p#"$HOME"}"
q="~/quoted"
echo "$q"
echo ~nonexistentuser12345
[[ ~+ == "$PWD" ]] && echo "~+ is PWD"
