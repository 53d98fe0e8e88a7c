"""configparser: reading typed values, defaults, interpolation, writing a new file."""
import configparser

cp = configparser.ConfigParser()
print(cp.read(["config.ini", "missing.ini"]))
print(cp.sections(), sorted(cp.defaults().items()))
api = cp["api"]
print(api["base_url"], api.getint("retries"), api.getint("timeout"), api.get("missing", "fallback"))
print(cp.getboolean("storage", "compress"), cp.getint("storage", "max_mb") * 2, cp.has_option("storage", "timeout"))
print(sorted(cp.options("storage")))
settings = configparser.ConfigParser()
settings.read("project/config/settings.ini")
print(settings["logging"]["format"], settings.getint("server", "workers"), settings["database"].getboolean("echo"))
raw = configparser.RawConfigParser()
raw.read("project/config/settings.ini")
print(raw.get("logging", "format"))
ext = configparser.ConfigParser(interpolation=configparser.ExtendedInterpolation())
ext.read_string("[paths]\nroot = /srv\ndata = ${root}/data\n[app]\nlog = ${paths:data}/app.log\n")
print(ext["app"]["log"])
out = configparser.ConfigParser()
out["server"] = {"host": "127.0.0.1", "port": "9000"}
out["features"] = {}
out["features"]["search"] = "on"
out.set("features", "beta", "off")
with open("generated.ini", "w") as f:
    out.write(f)
print(open("generated.ini").read(), end="")
try:
    cp.get("nosection", "x")
except configparser.NoSectionError as e:
    print("NoSectionError", e.section)
