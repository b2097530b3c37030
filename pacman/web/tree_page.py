"""The search-tree view: one self-contained HTML page (inline SVG drawn by an inline script) and
a static SVG picture, from the JSON-ready traces of `pacman.agents.trace`.

The page embeds, for each search, the trace's nodes, the ordered steps of the algorithm
(`trace_events`) and the budget of shown nodes; its script lays the tree out with the same rule
as `pacman.tree_placement.place_tree` (a test checks they agree) and draws it. Nothing is
fetched: the script and style are inlined from `pacman/web/assets/tree.*`, and the data is
embedded with `pacman.web.page.script_json`.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import Any

from pacman.tree_placement import Placed, place_tree, stub_xs
from pacman.web.page import inline_asset, script_json

__all__ = ["node_names", "render_page", "render_svg", "trace_events", "view_data"]

_KIND_NAMES = {"max": "MAX", "min": "MIN", "chance": "chance", "leaf": "leaf",
               "terminal": "terminal", "stuck": "stuck"}
# geometry shared with the script (tree.js): pixels per leaf slot and per ply
SLOT, ROW, MARGIN = 70, 96, 40


def _number(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, str):
        return {"inf": math.inf, "-inf": -math.inf}.get(value, math.nan)
    return float(value)


def shown(value: Any) -> str:
    """A value as the page shows it: `3`, `2.5`, `-inf`, `?` for none."""
    number = _number(value)
    if number is None:
        return "?"
    if math.isinf(number):
        return "inf" if number > 0 else "-inf"
    return f"{number:g}"


def node_names(trace: dict[str, Any]) -> list[str]:
    """A short name per node: its label (a tree case's node), else the path of actions from
    the root by initials (`W.N.stop`; `root` for the root)."""
    names: list[str] = []
    for node in trace["nodes"]:
        if node.get("label") is not None:
            names.append(str(node["label"]))
        elif node["parent"] is None:
            names.append("root")
        else:
            action = str(node["action"])
            step = "stop" if action == "Stop" else action[:1] or "?"
            above = names[node["parent"]]
            names.append(step if above == "root" else f"{above}.{step}")
    return names


def trace_events(trace: dict[str, Any], names: list[str] | None = None) -> list[dict[str, Any]]:
    """The search step by step, in the order the algorithm works: generate a node, evaluate a
    leaf, back a child's value up into its parent, update alpha or beta, cut. Each event is
    {"kind", "node", "text", "set": [[node, field, text], ...]} where a field is `seen`,
    `value`, `alpha`, `beta` or `cut`: what becomes known at that step."""
    nodes = trace["nodes"]
    names = names or node_names(trace)
    pruning = trace["method"] == "alphabeta"
    events: list[dict[str, Any]] = []

    def event(kind: str, node: int, text: str, *sets: list[Any]) -> None:
        events.append({"kind": kind, "node": node, "text": text, "set": list(sets)})

    def window(node: dict[str, Any]) -> str:
        if not pruning or node["kind"] not in ("max", "min"):
            return ""
        return f", searched with alpha {shown(node.get('alpha'))}, beta {shown(node.get('beta'))}"

    def walk(n: int) -> None:
        node = nodes[n]
        name, kind = names[n], node["kind"]
        if kind in ("leaf", "terminal", "stuck"):
            why = {"leaf": "the depth limit", "terminal": "a won or lost state",
                   "stuck": "no legal move"}[kind]
            event("evaluate", n, f"evaluate {name} ({why}): {shown(node['value'])}",
                  [n, "value", shown(node["value"])])
            return
        children = node.get("children", [])
        best: float | None = None
        alpha, beta = _number(node.get("alpha")), _number(node.get("beta"))
        for i, c in enumerate(children):
            child = nodes[c]
            sets = [[c, "seen", "1"]]
            if pruning and child["kind"] in ("max", "min"):
                sets += [[c, "alpha", shown(child.get("alpha"))],
                         [c, "beta", shown(child.get("beta"))]]
            event("generate", c, f"generate {names[c]} ({name} --{child['action']}--> "
                  f"{names[c]}){window(child)}", *sets)
            walk(c)
            value = _number(child["value"])
            assert value is not None
            if kind == "chance":
                event("backup", n, f"{names[c]} = {shown(value)} goes into the expected value "
                      f"at {name}")
                continue
            better = best is None or (value > best if kind == "max" else value < best)
            if not better:
                event("backup", n, f"{names[c]} = {shown(value)} does not change {name} "
                      f"({kind} so far {shown(best)})")
                continue
            best = value
            event("backup", n, f"back up {names[c]} = {shown(value)} to {name}: its {kind} so "
                  f"far becomes {shown(value)}", [n, "value", shown(value)])
            cut = node.get("cut")
            if pruning and cut is not None and cut["after"] == i:
                sign = ">" if cut["by"] == "beta" else "<"
                head = f"cut at {name}: {shown(value)} {sign} {cut['by']} {shown(cut['bound'])}"
                if cut["skipped"]:
                    text = f"{head}: never generated {', '.join(cut['skipped'])}"
                else:
                    text = f"{head} at its last child: its value is only a bound"
                event("cut", n, text, [n, "cut", "1"])
                break
            if pruning and kind == "max" and alpha is not None and value > alpha:
                alpha = value
                event("alpha", n, f"alpha at {name} becomes {shown(value)}",
                      [n, "alpha", shown(value)])
            elif pruning and kind == "min" and beta is not None and value < beta:
                beta = value
                event("beta", n, f"beta at {name} becomes {shown(value)}",
                      [n, "beta", shown(value)])
        if node.get("unrecorded_children"):
            event("note", n, f"{node['unrecorded_children']} more children of {name} searched "
                  "but not recorded (the node budget)")
        if kind == "chance" or shown(node["value"]) != shown(best):
            what = "expected value" if kind == "chance" else "value"
            event("value", n, f"{name} = {shown(node['value'])} ({what})",
                  [n, "value", shown(node["value"])])

    root = nodes[0]
    event("start", 0, f"start at {names[0]} (MAX, Pacman to move){window(root)}",
          [0, "seen", "1"], *([[0, "alpha", shown(root.get("alpha"))],
                              [0, "beta", shown(root.get("beta"))]] if pruning else []))
    walk(0)
    event("decide", 0, f"Pacman chooses {trace['action']} (value {shown(trace['value'])})",
          [0, "value", shown(trace["value"])])
    return events


def view_data(trace: dict[str, Any], title: str, *, max_shown: int = 120,
              marks: dict[int, str] | None = None) -> dict[str, Any]:
    """What the page embeds for one tree: totals, nodes (values as text), steps and marks."""
    names = node_names(trace)
    nodes = []
    for node, name in zip(trace["nodes"], names, strict=True):
        item = {"id": node["id"], "parent": node["parent"], "action": node["action"],
                "ply": node["ply"], "kind": node["kind"], "name": name,
                "short": "" if node.get("label") is None and node["parent"] is not None
                else name,
                "value": shown(node["value"]), "children": node.get("children", [])}
        if "alpha" in node:
            item["alpha"], item["beta"] = shown(node["alpha"]), shown(node["beta"])
        if node.get("cut"):
            cut = node["cut"]
            item["cut"] = {"by": cut["by"], "bound": shown(cut["bound"]),
                           "skipped": cut["skipped"], "after": cut["after"]}
        if node.get("probabilities"):
            item["probabilities"] = [f"{p:.3g}" for p in node["probabilities"]]
        if node.get("unrecorded_children"):
            item["unrecorded_children"] = node["unrecorded_children"]
        nodes.append(item)
    return {"title": title, "method": trace["method"], "depth": trace["depth"],
            "action": trace["action"], "value": shown(trace["value"]),
            "nodes_generated": trace["nodes_generated"], "evaluations": trace["evaluations"],
            "cuts": trace["cuts"], "pruned": trace["pruned"],
            "unrecorded": trace.get("unrecorded", 0),
            "principal_variation": trace["principal_variation"],
            "max_shown": max_shown, "nodes": nodes, "events": trace_events(trace, names),
            "marks": {str(k): v for k, v in (marks or {}).items()}}


def render_page(title: str, views: list[dict[str, Any]], *, heading: str = "",
                student: dict[str, Any] | None = None) -> str:
    """The whole page: one tab per view (e.g. minimax, alpha-beta, expectimax) with its tree,
    totals and stepping, a comparison table, and, if given, the student side-by-side.

    The data is `script_json(..., ascii_only=True)` (`pacman.web.page`): pure ASCII, with `<`,
    `>`, `&`, U+2028 and U+2029 escaped, so no label can end the script element.
    """
    data = {"views": views, "student": student, "heading": heading,
            "geometry": {"slot": SLOT, "row": ROW, "margin": MARGIN}}
    payload = script_json(data, ascii_only=True)
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{html.escape(title)}</title>\n"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
            f"<style>\n{inline_asset('tree.css')}</style>\n</head>\n<body>\n"
            f"<h1 id=\"title\">{html.escape(title)}</h1>\n"
            "<div id=\"app\"></div>\n"
            f"<script id=\"tree-data\" type=\"application/json\">{payload}</script>\n"
            f"<script>\n{inline_asset('tree.js')}</script>\n</body>\n</html>\n")


# ------------------------------------------------------------------------ the static picture

_SUMMARY_LINE = 17  # pixels between the heading's summary lines
_FILL = {"max": "#dbe9ff", "min": "#ffe0dc", "chance": "#e9f7e1", "leaf": "#f3f3f3",
         "terminal": "#fff3c4", "stuck": "#f3f3f3"}


def _shape(kind: str, x: float, y: float, css: str) -> str:
    r = 15
    fill = _FILL.get(kind, "#fff")
    if kind == "max":
        points = f"{x},{y - r} {x + r},{y + r * 0.8} {x - r},{y + r * 0.8}"
        return f'<polygon class="{css}" points="{points}" fill="{fill}"/>'
    if kind == "min":
        points = f"{x - r},{y - r * 0.8} {x + r},{y - r * 0.8} {x},{y + r}"
        return f'<polygon class="{css}" points="{points}" fill="{fill}"/>'
    if kind == "chance":
        return f'<circle class="{css}" cx="{x}" cy="{y}" r="{r}" fill="{fill}"/>'
    return (f'<rect class="{css}" x="{x - r * 0.8}" y="{y - r * 0.8}" width="{r * 1.6}" '
            f'height="{r * 1.6}" fill="{fill}"/>')


def render_svg(trace: dict[str, Any], *, max_shown: int = 120, title: str = "",
               summary: Sequence[str] = ()) -> str:
    """The tree as a static SVG picture (no script): shapes by kind, values, alpha-beta windows,
    the principal variation in bold, cuts' never-generated moves as dashed grey stubs, and
    collapsed groups as `+N` boxes.

    Args:
        trace: a `SearchTrace.to_json()`.
        max_shown: nodes drawn before subtrees are collapsed.
        title: the heading line ('' for none).
        summary: lines written as they are under the title, one `<text class="summary">`
            each inside `<g id="summary">` (`pacman explain` gives the lines its text view
            prints first); the picture is widened to hold them.

    Returns:
        The SVG document as text.
    """
    items = place_tree(trace, max_shown=max_shown)
    names = node_names(trace)
    width = max((i.x for i in items), default=0) + 1
    for index in range(len(items)):
        width = max([width, *[x + 1 for x in stub_xs(items, index)]])
    height = max((i.y for i in items), default=0) + 1
    top = 22 + _SUMMARY_LINE * len(summary)  # the baseline of the last heading line

    def px(item_x: float) -> float:
        return round(MARGIN + item_x * SLOT, 1)

    def py(row: int) -> float:
        return top + MARGIN + 8 + row * ROW

    # about 7 px per character of 12 px sans-serif: wide enough for the heading's lines
    text_width = MARGIN + 7 * max([len(title), *map(len, summary)], default=0)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" '
           f'width="{max(px(width), text_width) + MARGIN}" '
           f'height="{py(height - 1) + 50}" font-family="sans-serif" font-size="11">',
           "<style>.edge{stroke:#777;stroke-width:1.2}.pv{stroke:#d9480f;stroke-width:3}"
           ".stub{stroke:#aaa;stroke-dasharray:4 3}.node{stroke:#333;stroke-width:1.2}"
           ".node.pv{stroke:#d9480f;stroke-width:3}.grey{fill:#999}"
           ".summary{font-size:12px;fill:#222}</style>"]
    if title:
        out.append(f'<text x="{MARGIN}" y="22" font-size="14">{html.escape(title)}</text>')
    if summary:
        out.append('<g id="summary">')
        out.extend(f'<text class="summary" x="{MARGIN}" y="{22 + _SUMMARY_LINE * (k + 1)}" '
                   f'xml:space="preserve">{html.escape(line, quote=False)}</text>'
                   for k, line in enumerate(summary))
        out.append("</g>")
    for item in items:
        if item.parent is None:
            continue
        parent = items[item.parent]
        css = "edge pv" if item.on_pv and parent.on_pv else "edge"
        if item.hidden:
            css = "edge stub"
        below = 32 if "alpha" in (parent.node or {}) else 15
        out.append(f'<line class="{css}" x1="{px(parent.x)}" y1="{py(parent.y) + below}" '
                   f'x2="{px(item.x)}" y2="{py(item.y) - 15}"/>')
        if item.node is not None and item.node.get("action"):
            mx, my = (px(parent.x) + px(item.x)) / 2, (py(parent.y) + py(item.y)) / 2
            out.append(f'<text x="{mx + 3}" y="{my}" fill="#555">'
                       f'{html.escape(str(item.node["action"]))}</text>')
    for index, item in enumerate(items):
        x, y = px(item.x), py(item.y)
        if item.hidden:
            out.append(f'<rect x="{x - 20}" y="{y - 12}" width="40" height="24" rx="5" '
                       f'fill="#eee" stroke="#999"/><text x="{x}" y="{y + 4}" '
                       f'text-anchor="middle">+{item.hidden}</text>')
            continue
        node = item.node or {}
        for k, sx in enumerate(stub_xs(items, index)):
            sx = px(sx)
            out.append(f'<line class="stub" x1="{x}" y1="{y + 15}" x2="{sx}" '
                       f'y2="{py(item.y + 1) - 10}"/>')
            out.append(f'<text class="grey" x="{sx}" y="{py(item.y + 1) + 4}" '
                       f'text-anchor="middle">{html.escape(node["cut"]["skipped"][k])}</text>')
        if node.get("cut") and node["cut"]["skipped"]:
            cut = node["cut"]
            sign = ">" if cut["by"] == "beta" else "<"
            text = f'cut: {shown(node["value"])} {sign} {cut["by"]} {shown(cut["bound"])}'
            out.append(f'<text class="grey" x="{x + 18}" y="{y + 14}">{html.escape(text)}</text>')
        out.append(_shape(node.get("kind", "leaf"), x, y, "node pv" if item.on_pv else "node"))
        out.append(f'<text x="{x}" y="{y - 19}" text-anchor="middle" font-weight="bold">'
                   f'{html.escape(str(node.get("label", "")) if item.id else names[0])}</text>')
        out.append(f'<text x="{x}" y="{y + 4}" text-anchor="middle">'
                   f'{shown(node.get("value"))}</text>')
        if "alpha" in node and node.get("kind") in ("max", "min"):
            out.append(f'<text x="{x}" y="{y + 28}" text-anchor="middle" fill="#555">'
                       f'[{shown(node["alpha"])}, {shown(node["beta"])}]</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def placed_json(items: list[Placed]) -> list[list[Any]]:
    """A layout as plain lists [id, x, y, parent, hidden, on_pv] (to compare with the
    script's layout)."""
    return [[i.id, i.x, i.y, i.parent, i.hidden, i.on_pv] for i in items]
