# Other delimiters avoid escaping slashes.
echo "/usr/local/bin" | sed 's|/usr/local|/opt|'
sed -n 's#^url = sqlite://\(.*\)#db path: \1#p' config/app.ini
grep 'proxy_pass' config/nginx.conf | sed 's,http://,https://,'
