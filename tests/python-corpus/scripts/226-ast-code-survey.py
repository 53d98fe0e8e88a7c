"""Agent job: survey Python files with ast: functions, imports, calls; then unparse a rewrite."""
import ast
import os

for dirpath, dirnames, filenames in os.walk("project"):
    dirnames.sort()
    for name in sorted(filenames):
        if not name.endswith(".py"):
            continue
        path = os.path.join(dirpath, name)
        tree = ast.parse(open(path).read(), filename=path)
        funcs = [(n.name, n.lineno, [a.arg for a in n.args.args]) for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
        imports = sorted({a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names} |
                         {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module})
        calls = sorted({n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)})
        print(path, funcs, imports, calls)


class RenameSlugify(ast.NodeTransformer):
    def visit_Name(self, node):
        if node.id == "slugify":
            node.id = "make_slug"
        return node

    def visit_FunctionDef(self, node):
        if node.name == "slugify":
            node.name = "make_slug"
        self.generic_visit(node)
        return node


src = open("project/src/app/utils.py").read()
new = ast.unparse(RenameSlugify().visit(ast.parse(src)))
print(new)
print(ast.literal_eval("{'a': [1, 2.5, (3, None)], 'b': True}"))
try:
    ast.parse("def broken(:\n")
except SyntaxError as e:
    print("SyntaxError line", e.lineno)
