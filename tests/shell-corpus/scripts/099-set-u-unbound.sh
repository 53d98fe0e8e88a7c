# set -u makes unset variables an error.
set -u
defined=ok
echo "$defined"
echo "${maybe:-default is fine}"
echo "$undefined_var"
echo "never"
