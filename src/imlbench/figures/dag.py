"""A directed acyclic graph drawn from YAML: the causal structure a scenario's structural
equations encode (Pearl 1993; the book's ch. 4 opens each structural causal model with one).

``dag``: the graph of the ``edges`` (pairs [cause, effect]) and of the isolated ``nodes``,
each node a labelled circle and each edge an arrow that ends at the circle's rim. Nodes sit at
the given ``positions`` (node -> [x, y]); the others are laid out by causal order: the
topological generations of the graph from left to right (causes left of their effects), the
nodes of one generation one above the other. The figure reads no data: its entry names the
scenarios it illustrates, which do not have to run first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from imlbench.figures import figure
from imlbench.figures import style as st
from imlbench.figures.inputs import FigureInputs
from imlbench.params import items, number, table, text

#: the drawing's look: node circle size (points^2), node face colour
NODE_SIZE = 2600
NODE_FACE = "#f2f2f2"


def dag_graph(edges: Sequence[Sequence[str]], nodes: Sequence[str] = ()):
    """The directed graph of ``edges`` ([cause, effect] pairs) and the extra ``nodes``; a
    ValueError when it has a cycle (a DAG has none) or a self-loop."""
    import networkx as nx

    graph = nx.DiGraph()
    graph.add_nodes_from(str(n) for n in nodes)
    graph.add_edges_from((str(a), str(b)) for a, b in edges)
    if not nx.is_directed_acyclic_graph(graph):
        cycle = " -> ".join(a for a, _ in nx.find_cycle(graph))
        raise ValueError(f"the edges form a cycle ({cycle}); a DAG has none")
    return graph


def layout(graph, positions: Mapping[str, Sequence[float]] | None = None
           ) -> dict[str, tuple[float, float]]:
    """Node -> (x, y): ``positions`` where given, else the node's topological generation as
    x and its place within the generation (centred at 0) as y."""
    import networkx as nx

    out: dict[str, tuple[float, float]] = {}
    for gen, names in enumerate(nx.topological_generations(graph)):
        names = sorted(names)
        for i, name in enumerate(names):
            out[name] = (float(gen), (len(names) - 1) / 2 - i)
    given = {str(k): (float(v[0]), float(v[1])) for k, v in (positions or {}).items()}
    unknown = set(given) - set(out)
    if unknown:
        raise ValueError(f"positions of unknown node(s) {', '.join(sorted(unknown))}; the "
                         f"graph's nodes: {', '.join(sorted(out))}")
    return out | given


@figure("dag", params={
    "edges": items(items(text(), length=2), default=[], unique=True, acyclic=True),
    "nodes": items(text(), default=[], unique=True),
    "positions": table(value=items(number(), length=2), default=None, nullable=True),
})
def dag(inputs: FigureInputs, spec: dict, out_png: Path, out_pdf: Path, *,
        edges: list[list[str]], nodes: list[str],
        positions: dict[str, list[float]] | None) -> None:
    """The directed graph of ``edges`` and ``nodes`` at ``positions`` (module doc)."""
    import networkx as nx

    try:
        graph = dag_graph(edges, nodes)
        pos = layout(graph, positions)
    except ValueError as err:
        raise ValueError(f"figure {spec['title']!r}: {err}") from None
    if not graph.number_of_nodes():
        raise ValueError(f"figure {spec['title']!r}: no edges and no nodes to draw")
    fig, style = st.new_figure(spec, rows=1, width=4.5, panel_height=2.6)
    ax = fig.add_subplot()
    nx.draw_networkx_nodes(graph, pos, ax=ax, node_size=NODE_SIZE, node_color=NODE_FACE,
                           edgecolors="black", linewidths=1.2)
    nx.draw_networkx_labels(graph, pos, ax=ax, font_size=style["font_size"] + 5,
                            font_weight="bold")
    nx.draw_networkx_edges(graph, pos, ax=ax, node_size=NODE_SIZE, arrows=True,
                           arrowstyle="-|>", arrowsize=22, width=1.6,
                           connectionstyle="arc3,rad=0.0", min_target_margin=4)
    xs, ys = zip(*pos.values(), strict=True)
    pad = 0.45
    ax.set_xlim(min(xs) - pad, max(xs) + pad)
    ax.set_ylim(min(ys) - pad, max(ys) + pad)
    ax.axis("off")
    st.save(fig, style, out_png, out_pdf)
