"""Safe arithmetic expressions of a study file, evaluated on numpy arrays.

An expression (``"2*x1 + x2 - x3 + x1*x3"``) is parsed by Python's ``ast`` and checked against
a whitelist before anything runs: numbers, feature names, the constant ``pi`` and the caller's
named constants (replaced by their numbers in the parsed tree), ``+ - * / **``,
unary ``-`` and ``+``, comparisons (``< <= > >= == !=``, chains allowed; they give 0/1) and calls,
with positional arguments only, of the functions in :data:`FUNCTIONS`. The random terms
``normal(mean, sd)`` and ``uniform(low, high)`` (each call one fresh draw per row) are allowed
only where the caller permits them (structural equations). Any other construct, an unknown name
or function, or a syntax error raises :class:`ExpressionError` naming the offending token and
what is allowed. The checked tree is compiled into nested numpy closures; config text is never
handed to ``eval``, ``exec`` or ``compile``.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

#: the deterministic functions and their number of arguments; ``indicator(c)`` is 1 where c is
#: nonzero (true) and 0 elsewhere, ``where(c, a, b)`` is a where c is nonzero, else b
FUNCTIONS: dict[str, tuple[int, Callable[..., np.ndarray]]] = {
    "exp": (1, np.exp), "log": (1, np.log), "sqrt": (1, np.sqrt), "sin": (1, np.sin),
    "cos": (1, np.cos), "abs": (1, np.abs), "minimum": (2, np.minimum),
    "maximum": (2, np.maximum),
    "indicator": (1, lambda c: (np.asarray(c) != 0).astype(float)),
    "where": (3, lambda c, a, b: np.where(np.asarray(c) != 0, a, b)),
}
#: the random terms (two arguments each): a normal draw of (mean, sd), a uniform one of (low, high)
RANDOM = ("normal", "uniform")
#: named constants
CONSTANTS = {"pi": float(np.pi)}

_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.Div: operator.truediv, ast.Pow: operator.pow}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos}
_COMPARE = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
            ast.Eq: operator.eq, ast.NotEq: operator.ne}
SYNTAX = "numbers, names, + - * / **, unary -, comparisons < <= > >= == !=, function calls"

Value = np.ndarray | float
#: a compiled node: (columns by name, random generator or None, number of rows) -> values
Node = Callable[[Mapping[str, np.ndarray], np.random.Generator | None, int], Value]


class ExpressionError(ValueError):
    """An expression that is not allowed, or a random term with invalid parameters."""


@dataclass(frozen=True)
class Affine:
    """``const + sum coefs[name] * name + e`` with ``e`` a centred normal of variance ``var``
    (the sum of the expression's independent normal terms)."""

    const: float
    coefs: dict[str, float] = field(default_factory=dict)
    var: float = 0.0

    @property
    def constant(self) -> bool:
        return not any(self.coefs.values()) and self.var == 0

    def scaled(self, c: float) -> Affine:
        return Affine(self.const * c, {k: v * c for k, v in self.coefs.items()}, self.var * c * c)

    def plus(self, other: Affine, sign: float = 1.0) -> Affine:
        coefs = dict(self.coefs)
        for k, v in other.coefs.items():
            coefs[k] = coefs.get(k, 0.0) + sign * v
        return Affine(self.const + sign * other.const, coefs, self.var + other.var)


@dataclass(frozen=True)
class Expression:
    """A checked expression: ``names`` are the feature names it reads, ``random`` whether it
    holds random terms; call it with the columns, a generator and the number of rows."""

    text: str
    names: frozenset[str]
    random: bool
    _node: Node
    _tree: ast.AST

    def __call__(self, columns: Mapping[str, np.ndarray], n: int,
                 rng: np.random.Generator | None = None) -> np.ndarray:
        """The expression on ``n`` rows, shape ``(n,)`` (``rng`` draws the random terms)."""
        with np.errstate(all="ignore"):
            out = self._node(columns, rng, n)
        return np.broadcast_to(np.asarray(out, dtype=float), (n,)).copy()

    def affine(self) -> Affine | None:
        """The expression as an :class:`Affine` form when it is affine in the features with
        normal terms of constant parameters only, else None."""
        return _affine(self._tree)

    def centred(self) -> bool:
        """Whether the expression has mean zero given the features by its form (see
        :func:`_centred`): a sufficient condition, so False means "not shown", not "not
        zero"."""
        return _centred(self._tree)


def _segment(text: str, node: ast.AST) -> str:
    return ast.get_source_segment(text, node) or type(node).__name__


def _described(names: Sequence[str], label: str) -> str:
    shown = ", ".join(names) if names else "none"
    return f"{shown} ({label})" if label else shown


def parse(text: object, names: Sequence[str], *, random: bool = False,
          label: str = "", constants: Mapping[str, float] | None = None) -> Expression:
    """Check ``text`` and compile it. ``names`` are the feature names it may read (``label``
    describes them in messages, e.g. "earlier features"); ``random`` permits random terms;
    every name of ``constants`` (other than a feature name) stands for its number, substituted
    into the parsed tree, so that the expression holds numbers only."""
    if not isinstance(text, str):
        raise ExpressionError(f"{text!r} is not an expression; allowed: a string of {SYNTAX}")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as err:
        raise ExpressionError(f"syntax error in {text!r}: {err.msg}; allowed: {SYNTAX}") \
            from None
    named = {k: float(v) for k, v in (constants or {}).items() if k not in names}
    body = _Substitute(named).visit(tree).body
    checker = _Compiler(text.strip(), list(names), random, label, list(named))
    node = checker.compile(body)
    return Expression(text, frozenset(checker.used), checker.random_used, node, body)


def constant_value(text: object, constants: Mapping[str, float]) -> float:
    """The number a constant-only expression (numbers, ``pi``, the named ``constants``, the
    functions; no feature names, no random terms) stands for; a number is returned as it is."""
    if isinstance(text, int | float) and not isinstance(text, bool):
        return float(text)
    return float(parse(text, [], constants=constants)({}, 1)[0])


class _Substitute(ast.NodeTransformer):
    """Replaces every name of the named constants (not a called function) by its number."""

    def __init__(self, constants: Mapping[str, float]) -> None:
        self.constants = constants

    def visit_Call(self, node: ast.Call) -> ast.AST:
        node.args = [self.visit(a) for a in node.args]
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in self.constants:
            return ast.copy_location(ast.Constant(self.constants[node.id]), node)
        return node


class _Compiler:
    """Walks a parsed tree, rejects what the whitelist lacks, and builds the closures."""

    def __init__(self, text: str, names: list[str], random: bool, label: str,
                 constants: Sequence[str] = ()) -> None:
        self.text, self.names, self.random, self.label = text, names, random, label
        self.constants = list(constants)
        self.used: set[str] = set()
        self.random_used = False

    def error(self, what: str, allowed: str) -> ExpressionError:
        return ExpressionError(f"{what} in {self.text!r}; allowed: {allowed}")

    def functions(self) -> str:
        return ", ".join([*FUNCTIONS, *(RANDOM if self.random else ())])

    def compile(self, node: ast.AST) -> Node:
        if isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise self.error(f"constant {_segment(self.text, node)}", SYNTAX)
            return lambda cols, rng, n, v=float(value): v
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            op, left, right = _BINARY[type(node.op)], self.compile(node.left), \
                self.compile(node.right)
            return lambda cols, rng, n: op(left(cols, rng, n), right(cols, rng, n))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            op1, operand = _UNARY[type(node.op)], self.compile(node.operand)
            return lambda cols, rng, n: op1(operand(cols, rng, n))
        if isinstance(node, ast.Compare) and all(type(o) in _COMPARE for o in node.ops):
            return self.compare(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        raise self.error(f"{_segment(self.text, node)!r} ({type(node).__name__}) is not "
                         f"allowed", f"{SYNTAX} of {self.functions()}")

    def name(self, name: str) -> Node:
        if name in self.names:
            self.used.add(name)
            return lambda cols, rng, n: cols[name]
        if name in CONSTANTS:
            return lambda cols, rng, n, v=CONSTANTS[name]: v
        if name in FUNCTIONS or name in RANDOM:
            raise self.error(f"function {name!r} without arguments",
                             f"calls such as {name}(...)")
        features = [_described(self.names, self.label)] if self.names else []
        raise self.error(f"unknown name {name!r}",
                         ", ".join([*features, *CONSTANTS, *self.constants]))

    def compare(self, node: ast.Compare) -> Node:
        parts = [self.compile(node.left), *map(self.compile, node.comparators)]
        ops = [_COMPARE[type(o)] for o in node.ops]

        def evaluate(cols: Mapping[str, np.ndarray], rng: np.random.Generator | None,
                     n: int) -> Value:
            values = [p(cols, rng, n) for p in parts]
            out = np.ones((), dtype=bool)
            for op, a, b in zip(ops, values, values[1:], strict=False):
                out = out & op(a, b)
            return out.astype(float)

        return evaluate

    def call(self, node: ast.Call) -> Node:
        if not isinstance(node.func, ast.Name):
            raise self.error(f"call of {_segment(self.text, node.func)!r} is not allowed",
                             f"calls of {self.functions()}")
        name = node.func.id
        if name in RANDOM and not self.random:
            raise self.error(f"random term {name!r}", f"the functions {', '.join(FUNCTIONS)} "
                             f"(random terms {', '.join(RANDOM)} only in structural equations "
                             f"of features)")
        if name not in FUNCTIONS and name not in RANDOM:
            raise self.error(f"unknown function {name!r}", self.functions())
        if node.keywords:
            raise self.error(f"keyword argument {node.keywords[0].arg or '**'!r} of {name}",
                             "positional arguments only")
        arity = FUNCTIONS[name][0] if name in FUNCTIONS else 2
        if len(node.args) != arity or any(isinstance(a, ast.Starred) for a in node.args):
            raise self.error(f"{name} with {len(node.args)} argument(s)",
                             f"{arity} positional argument(s)")
        args = [self.compile(a) for a in node.args]
        if name in FUNCTIONS:
            fn = FUNCTIONS[name][1]
            return lambda cols, rng, n: fn(*(a(cols, rng, n) for a in args))
        self.random_used = True
        return self.draw(name, args)

    def draw(self, name: str, args: list[Node]) -> Node:
        text = self.text

        def evaluate(cols: Mapping[str, np.ndarray], rng: np.random.Generator | None,
                     n: int) -> Value:
            if rng is None:
                raise ExpressionError(f"random term {name} in {text!r} needs a generator")
            a, b = (np.broadcast_to(np.asarray(f(cols, rng, n), dtype=float), (n,))
                    for f in args)
            if name == "normal":
                if np.any(~(b >= 0)):
                    raise ExpressionError(f"normal(mean, sd) in {text!r} has sd < 0 or not a "
                                          f"number; allowed: sd >= 0")
                return rng.normal(a, b)
            if np.any(~(b >= a)):
                raise ExpressionError(f"uniform(low, high) in {text!r} has high < low or not "
                                      f"a number; allowed: high >= low")
            return rng.uniform(a, b)

        return evaluate


def _constant(node: ast.AST) -> float | None:
    """The value of a subtree without names other than constants and without random terms."""
    nodes = list(ast.walk(node))
    calls = [s for s in nodes if isinstance(s, ast.Call)]
    functions = {id(c.func) for c in calls}
    if any(c.func.id in RANDOM for c in calls) or any(  # type: ignore[attr-defined]
            isinstance(s, ast.Name) and id(s) not in functions and s.id not in CONSTANTS
            for s in nodes):
        return None
    compiled = _Compiler(ast.unparse(node), [], False, "").compile(node)
    with np.errstate(all="ignore"):
        return float(compiled({}, None, 1))


def _affine(node: ast.AST) -> Affine | None:
    """See :meth:`Expression.affine` (``node`` has passed the checks of :func:`parse`)."""
    value = _constant(node)
    if value is not None:
        return Affine(value)
    if isinstance(node, ast.Name):
        return Affine(0.0, {node.id: 1.0})
    if isinstance(node, ast.UnaryOp):
        inner = _affine(node.operand)
        return None if inner is None else inner.scaled(-1.0 if isinstance(node.op, ast.USub)
                                                       else 1.0)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult | ast.Div):
        left, right = _affine(node.left), _affine(node.right)
        if left is None or right is None:
            return None
        if isinstance(node.op, ast.Add | ast.Sub):
            return left.plus(right, 1.0 if isinstance(node.op, ast.Add) else -1.0)
        if isinstance(node.op, ast.Mult) and (left.constant or right.constant):
            return right.scaled(left.const) if left.constant else left.scaled(right.const)
        if isinstance(node.op, ast.Div) and right.constant and right.const != 0:
            return left.scaled(1.0 / right.const)
        return None
    if isinstance(node, ast.Call) and node.func.id == "normal":  # type: ignore[attr-defined]
        mean, sd = _affine(node.args[0]), _constant(node.args[1])
        if mean is not None and sd is not None:
            return Affine(mean.const, mean.coefs, mean.var + sd * sd)
    return None


def _centred(node: ast.AST) -> bool:
    """See :meth:`Expression.centred`. Centred given the features are: ``normal(0, s)`` and
    ``uniform(-c, c)`` (constant 0 mean, constant symmetric limits); ``-a``, ``a + b`` and
    ``a - b`` of centred terms; ``a * b`` with a centred factor, and ``a / b`` with a centred
    numerator. Every random call is its own draw, so the two sides of a product or quotient are
    independent given the features and E[a b | x] = E[a | x] E[b | x] = 0 (E[a / b | x] = 0
    likewise, when E[1 / |b| | x] is finite)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id in RANDOM:
        low, high = (_constant(a) for a in node.args)
        if node.func.id == "normal":
            return low == 0
        return low is not None and high is not None and low == -high
    if isinstance(node, ast.UnaryOp):
        return _centred(node.operand)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
        return _centred(node.left) and _centred(node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return _centred(node.left) or _centred(node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        return _centred(node.left)
    return False
