# Bump all dependency carets in package.json with sed, check with jq.
sed -i -E 's/"\^([0-9]+)\.[0-9]+\.[0-9]+"/"^\1.0.0"/' web/package.json
jq -c '.dependencies, .devDependencies' web/package.json
