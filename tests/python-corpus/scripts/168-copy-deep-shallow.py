"""copy.copy vs copy.deepcopy on nested configs, custom __deepcopy__, shared references."""
import copy
import json

config = json.load(open("data/config.json"))
shallow = copy.copy(config)
deep = copy.deepcopy(config)
shallow["database"]["pool_size"] = 99
deep["limits"]["max_items"] = 1
shallow["name"] = "changed"
print(config["database"]["pool_size"], config["limits"]["max_items"], config["name"])
print(shallow["features"] is config["features"], deep["features"] is config["features"], deep["features"] == config["features"])
shared = [1, 2]
nested = {"a": shared, "b": shared}
dup = copy.deepcopy(nested)
print(dup["a"] is dup["b"], dup["a"] is shared)
loop = [1]
loop.append(loop)
d = copy.deepcopy(loop)
print(d[1] is d, d[1] is loop)


class Conn:
    def __init__(self, name):
        self.name = name
        self.cache = {}

    def __deepcopy__(self, memo):
        new = Conn(self.name + "-copy")
        memo[id(self)] = new
        return new

    def __copy__(self):
        return Conn(self.name + "-shallow")


c = Conn("db")
c.cache["k"] = 1
print(copy.deepcopy(c).name, copy.copy(c).name, copy.deepcopy([c, c])[0].name)
t = (1, [2])
print(copy.copy(t) is t, copy.deepcopy(t) is t, copy.deepcopy((1, 2)) == (1, 2))
