"""Agent job: flatten INI settings into a .env file and a JSON dump, keys upper-cased."""
import configparser
import json

cp = configparser.ConfigParser(interpolation=None)
cp.read(["config.ini", "project/config/settings.ini"])
env = {}
for section in cp.sections():
    for key, value in cp.items(section, raw=True):
        env[f"{section}_{key}".upper()] = value
with open(".env", "w") as f:
    for k in sorted(env):
        v = env[k]
        f.write(f"{k}={json.dumps(v) if any(c in v for c in ' %$') else v}\n")
print(open(".env").read(), end="")
with open("settings.json", "w") as f:
    json.dump({s: dict(cp.items(s, raw=True)) for s in cp.sections()}, f, indent=1, sort_keys=True)
print(len(env), "keys")
