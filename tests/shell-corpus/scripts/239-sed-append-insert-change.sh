# a, i and c commands.
sed '/^\[server\]/a timeout = 30' config/app.ini | head -n 6
sed '1i # generated' data/hosts.txt | head -n 2
sed '/^LOG_LEVEL/c LOG_LEVEL=warn' .env.example | grep LOG
