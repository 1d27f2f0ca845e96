"""Node types registered at run time from Python.

    Annotate = ctir.register_node("my.Annotate", parent="ir.Expr",
                                  fields=[("value", "node"), ("tag", "int")])
    note = Annotate(x, tag=3)

A field is (name, kind) or, for node and array fields, (name, kind, element type key),
with a dict of options last if any ({"defines": "simple", "scope_over": "body"}; see
docs/python.md). Kinds: "node" (a node or None), "array" (a list of nodes), "int",
"float", "bool", "str" (a value or None). Nodes of the type are ordinary ctir nodes: their fields read by name,
walk, map, structural_equal, structural_hash and format_tree see them.
"""

from . import _ctir

_registered = {}


class NodeType:
    """A node type registered from Python: call it to create a node of the type."""

    def __init__(self, type_key, parent, fields):
        self.type_key = type_key
        self.parent = parent
        self.fields = [tuple(field) for field in fields]
        self._names = [field[0] for field in self.fields]
        self.__name__ = type_key.rsplit(".", 1)[-1]

    def __call__(self, *args, **kwargs):
        if len(args) > len(self._names):
            raise TypeError(f"{self.type_key} takes at most {len(self._names)} field values, "
                            f"got {len(args)}")
        values = list(args) + [None] * (len(self._names) - len(args))
        for name, value in kwargs.items():
            if name not in self._names:
                raise TypeError(f"{self.type_key} has no field '{name}'")
            index = self._names.index(name)
            if index < len(args):
                raise TypeError(f"{self.type_key} got field '{name}' twice")
            values[index] = value
        return _ctir.make_node(self.type_key, values)

    def __instancecheck__(self, node):
        return isinstance(node, _ctir.Node) and node.type_key == self.type_key

    def __repr__(self):
        return f"<ctir node type {self.type_key} (parent {self.parent}) fields={self.fields}>"


def register_node(type_key, parent="Object", fields=()):
    """Registers the node type `type_key` deriving from `parent` (Object, ir.Expr,
    ir.PrimExpr, ir.Stmt or ir.Type) with `fields`, and returns its NodeType.

    Registering a key again with the same parent and fields returns the same NodeType;
    with others it raises ValueError.
    """
    normalized = _ctir.register_node(type_key, parent, list(fields))
    existing = _registered.get(type_key)
    if existing is None:
        existing = _registered[type_key] = NodeType(type_key, parent, normalized)
    return existing
