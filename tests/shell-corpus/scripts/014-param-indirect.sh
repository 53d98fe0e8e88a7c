# ${!name} and ${!prefix*}
APP_HOST=localhost
APP_PORT=8080
APP_MODE=dev
var=APP_PORT
echo "${!var}"
for v in ${!APP_*}; do
  echo "$v=${!v}"
done
