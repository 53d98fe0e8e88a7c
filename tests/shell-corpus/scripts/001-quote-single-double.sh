# Single quotes keep everything literal; double quotes expand variables.
name=world
echo 'hello $name'
echo "hello $name"
echo "tab:\t stays" 'and \n too'
echo "a \"quoted\" word" 'it'"'"'s'
