"""The window's tree view: the last Pacman move's traced search drawn as a game tree.

Positions come from `pacman.tree_placement.place_tree`. MAX nodes (Pacman) are up-triangles,
MIN nodes (ghosts) down-triangles, chance nodes circles, leaves, won/lost states and stuck
agents squares; each shows its value when there is room. The principal variation's edges are
thick and yellow, the moves a cut never generated are short grey stubs, and a collapsed group is
a box "+N nodes". Left/Right select the nodes in generation order (the line at the top
describes the selected one); Enter, or a click, opens a selected group. A trace without nodes
(a replay's summary, or an MCTS search, which keeps statistics per root move and no node list)
draws nothing and says so in its title line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pygame

from pacman.display.search_panel import trace_data, value_text

if TYPE_CHECKING:
    from pacman.tree_placement import Placed

Color = tuple[int, int, int]

TREE_BACKGROUND: Color = (10, 10, 24)
TREE_TEXT: Color = (200, 200, 200)
TREE_TITLE: Color = (230, 230, 51)
MAX_COLOR: Color = (255, 255, 61)       # Pacman's layers: up-triangles
MIN_COLOR: Color = (230, 40, 40)        # the ghosts' layers (minimax, alpha-beta)
CHANCE_COLOR: Color = (60, 150, 255)    # the ghosts' layers (expectimax)
LEAF_COLOR: Color = (190, 190, 190)     # a leaf at the depth limit, a won or lost state, stuck
EDGE_COLOR: Color = (90, 90, 110)
PV_COLOR: Color = (255, 200, 0)
STUB_COLOR: Color = (120, 120, 120)     # moves a cut never generated
GROUP_COLOR: Color = (150, 150, 170)
SELECTED_COLOR: Color = (0, 255, 255)
KIND_COLORS: dict[str, Color] = {"max": MAX_COLOR, "min": MIN_COLOR, "chance": CHANCE_COLOR,
                                 "leaf": LEAF_COLOR, "terminal": LEAF_COLOR,
                                 "stuck": LEAF_COLOR}
KEYS_LINE = "Left/Right: step through the nodes    Enter: open a group    v/Esc: back"
NO_TREE = "no search tree for the last move: play with --trace and a minimax, alphabeta " \
          "or expectimax agent"
SUMMARY_ONLY = "a replay keeps only each move's summary (the panel, key t): pacman explain " \
               "GAME.json --move N draws the tree of move N"
MCTS_NO_TREE = "MCTS keeps no node list to draw, only root visits and means: the panel " \
               "(key t) shows them"


def node_line(item: Placed) -> str:
    """One line about a placed item: a node's move, kind, value, window and cut, or a group."""
    if item.node is None:
        return f"a group of {item.hidden:,} nodes under node #{item.id} (Enter: open it)"
    node = item.node
    head = f"#{node['id']}" if node.get("action") is None else \
        f"#{node['id']} {node['action']}"
    agent = "Pacman" if node.get("agent", 0) == 0 else f"ghost {node['agent']}"
    text = f"{head}: ply {node.get('ply', 0)}, {node['kind']} ({agent} to move), value " \
           f"{value_text(node.get('value'))}"
    if "alpha" in node:
        text += f", alpha {value_text(node['alpha'])}, beta {value_text(node['beta'])}"
    if node.get("probabilities"):
        text += ", outcome probabilities " + ", ".join(
            f"{p:.3g}" for p in node["probabilities"])
    cut = node.get("cut")
    if cut and cut.get("skipped"):
        text += f"; cut by {cut['by']} {value_text(cut['bound'])}, never generated: " \
                f"{', '.join(cut['skipped'])}"
    if item.on_pv:
        text += "; on the principal variation"
    return text


def tree_title(data: dict[str, Any] | None, items: Sequence[Placed],
               move_number: int | None = None) -> str:
    """The view's first line: the search, its choice, and how many nodes are drawn."""
    if data is None:
        return NO_TREE
    shown = sum(1 for item in items if item.node is not None)
    which = "the last move" if move_number is None else f"Pacman move {move_number}"
    text = (f"Search of {which}: {data.get('method')}, depth {data.get('depth')}, chose "
            f"{data.get('action')} (value {value_text(data.get('value'))}); "
            f"{data.get('nodes_generated', 0):,} nodes generated, {shown:,} drawn, "
            f"{data.get('cuts', 0):,} cuts pruning {data.get('pruned', 0):,} moves")
    if data.get("unrecorded"):
        text += f"; {data['unrecorded']:,} past the trace's budget, not recorded"
    return text


def generation_order(items: Sequence[Placed]) -> list[int]:
    """Indexes of `items` in generation order (a group right after its parent)."""
    return sorted(range(len(items)), key=lambda i: (items[i].id, items[i].node is None))


class TreeView:
    """The tree of one trace, its selection and its open groups; draws itself."""

    def __init__(self, trace: Any, move_number: int | None = None, max_shown: int = 120
                 ) -> None:
        to_json = getattr(trace, "to_json", None)
        self.data = to_json() if callable(to_json) else trace_data(trace)
        self.summary_only = self.data is not None and "nodes" not in self.data
        self.mcts = self.data is not None and self.data.get("method") == "mcts"
        if self.summary_only:
            self.data = None  # a summary without its nodes (a replay's): nothing to draw
        self.move_number = move_number
        self.max_shown = max_shown
        self.expanded: frozenset[int] = frozenset()
        self.items: list[Placed] = []
        self.order: list[int] = []
        self.selected = 0  # a position in `order`
        self._stubs: list[list[float]] = []  # each item's never-generated moves, in slots
        self._origin = (0.0, 0.0)            # the pixel centre of slot 0 on row 0
        self._layout()

    def _layout(self) -> None:
        if self.data is None:
            return
        from pacman.tree_placement import place_tree

        chosen = self.items[self.order[self.selected]] if self.order else None
        self.items = place_tree(self.data, max_shown=self.max_shown, expanded=self.expanded)
        self.order = generation_order(self.items)
        self.selected = 0
        if chosen is not None:  # keep the selection on the same node
            for position, index in enumerate(self.order):
                item = self.items[index]
                if item.id == chosen.id and (item.node is None) == (chosen.node is None):
                    self.selected = position
                    break

    @property
    def current(self) -> Placed | None:
        """The selected item."""
        return self.items[self.order[self.selected]] if self.order else None

    def lines(self) -> list[str]:
        """The text drawn at the top (title, selected item) and the keys at the bottom."""
        current = self.current
        title = MCTS_NO_TREE if self.mcts else SUMMARY_ONLY if self.summary_only else \
            tree_title(self.data, self.items, self.move_number)
        return [title, node_line(current) if current is not None else "", KEYS_LINE]

    def key(self, key: int) -> bool:
        """Apply a key (Left/Right, Home/End, Enter); True if the view changed."""
        if not self.order:
            return False
        if key == pygame.K_RIGHT:
            self.selected = min(len(self.order) - 1, self.selected + 1)
        elif key == pygame.K_LEFT:
            self.selected = max(0, self.selected - 1)
        elif key == pygame.K_HOME:
            self.selected = 0
        elif key == pygame.K_END:
            self.selected = len(self.order) - 1
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            return self.open_group()
        else:
            return False
        return True

    def open_group(self) -> bool:
        """Open the selected collapsed group; True if there was one."""
        current = self.current
        if current is None or current.node is not None:
            return False
        self.expanded = self.expanded | {current.id}
        self._layout()
        return True

    def click(self, position: tuple[int, int], rect: pygame.Rect) -> bool:
        """Select the item nearest a click (and open it if it is a group); True if any."""
        if not self.items:
            return False
        places = self._places(rect)[0]
        nearest = min(range(len(self.items)), key=lambda i: (
            (places[i][0] - position[0]) ** 2 + (places[i][1] - position[1]) ** 2))
        self.selected = self.order.index(nearest)
        if self.items[nearest].node is None:
            self.open_group()
        return True

    def _places(self, rect: pygame.Rect) -> tuple[list[tuple[float, float]], float, float]:
        """Each item's pixel centre in `rect`, the slot width and the row height."""
        from pacman.tree_placement import stub_xs

        self._stubs = [stub_xs(self.items, i) if item.node and item.node.get("cut") else []
                       for i, item in enumerate(self.items)]
        slots = max(max(item.x for item in self.items),
                    max((max(xs) for xs in self._stubs if xs), default=0.0)) + 1
        rows = max(item.y for item in self.items) + 1
        sx, sy = rect.width / slots, rect.height / rows
        self._origin = (rect.left + 0.5 * sx, rect.top + 0.5 * sy)
        return ([(rect.left + (item.x + 0.5) * sx, rect.top + (item.y + 0.5) * sy)
                 for item in self.items], sx, sy)

    def tree_rect(self, area: pygame.Rect, line_height: int) -> pygame.Rect:
        """Where the tree goes in `area`: below two lines of text, above one."""
        return pygame.Rect(area.left + 8, area.top + 2 * line_height + 12, area.width - 16,
                           area.height - 3 * line_height - 20)

    def draw(self, target: pygame.Surface, area: pygame.Rect, font: pygame.font.Font,
             small: pygame.font.Font) -> None:
        """Draw the view into `area`: the title, the selected item, the tree and the keys."""
        from pacman.display.status import fit_text

        target.fill(TREE_BACKGROUND, area)
        height = font.get_linesize()
        title, detail, keys = self.lines()
        room = area.width - 16

        def measure(text: str) -> int:
            return int(font.size(text)[0])

        for row, (text, color) in enumerate(((title, TREE_TITLE), (detail, SELECTED_COLOR))):
            if text:
                target.blit(font.render(fit_text(text, room, measure), True, color),
                            (area.left + 8, area.top + 4 + row * height))
        keys_surface = font.render(fit_text(keys, room, measure), True, TREE_TEXT)
        target.blit(keys_surface, (area.left + 8, area.bottom - height - 4))
        draw_legend(target, (area.left + 24 + keys_surface.get_width(),
                             area.bottom - height - 4), area.right - 8, height, small)
        if self.items:
            self._draw_tree(target, self.tree_rect(area, height), small)

    def _draw_tree(self, target: pygame.Surface, rect: pygame.Rect,
                   small: pygame.font.Font) -> None:
        items = self.items
        places, sx, sy = self._places(rect)
        size = max(3.0, min(sx * 0.38, sy * 0.28, 16.0))
        for index, item in enumerate(items):  # edges first, the PV on top of the others
            if item.parent is not None and not (item.on_pv and items[item.parent].on_pv):
                pygame.draw.line(target, EDGE_COLOR, places[item.parent], places[index], 1)
        for index, item in enumerate(items):
            if item.parent is not None and item.on_pv and items[item.parent].on_pv:
                pygame.draw.line(target, PV_COLOR, places[item.parent], places[index],
                                 max(2, round(size / 4)))
        for index, item in enumerate(items):
            x, y = places[index]
            if item.node is None:
                self._draw_group(target, item, (x, y), size, sx, small)
                continue
            for stub in self._stubs[index]:  # the moves a cut never generated
                end = (self._origin[0] + stub * sx, y + sy * 0.6)
                pygame.draw.line(target, STUB_COLOR, (x, y), end, 1)
                pygame.draw.line(target, STUB_COLOR, (end[0] - 4, end[1] - 4),
                                 (end[0] + 4, end[1] + 4), 2)
                pygame.draw.line(target, STUB_COLOR, (end[0] - 4, end[1] + 4),
                                 (end[0] + 4, end[1] - 4), 2)
            draw_node(target, item.node.get("kind", "leaf"), (x, y), size, item.on_pv)
            text = value_text(item.node.get("value"))
            label = small.render(text, True, TREE_TEXT)
            if label.get_width() <= sx * 0.95:
                target.blit(label, (x - label.get_width() / 2, y + size + 1))
        current = self.current
        if current is not None:
            x, y = places[self.order[self.selected]]
            pygame.draw.circle(target, SELECTED_COLOR, (x, y), size * 1.6, 2)

    @staticmethod
    def _draw_group(target: pygame.Surface, item: Placed, centre: tuple[float, float],
                    size: float, slot: float, small: pygame.font.Font) -> None:
        text = f"+{item.hidden:,} nodes"
        label = small.render(text, True, GROUP_COLOR)
        if label.get_width() + 6 > slot:
            label = small.render(f"+{item.hidden:,}", True, GROUP_COLOR)
        width = max(size * 2, label.get_width() + 6)
        box = pygame.Rect(0, 0, round(width), round(max(size * 1.6, label.get_height() + 4)))
        box.center = (round(centre[0]), round(centre[1]))
        pygame.draw.rect(target, TREE_BACKGROUND, box)
        pygame.draw.rect(target, GROUP_COLOR, box, 1)
        target.blit(label, (box.centerx - label.get_width() / 2,
                            box.centery - label.get_height() / 2))


def draw_node(target: pygame.Surface, kind: str, centre: tuple[float, float], size: float,
              on_pv: bool = False) -> None:
    """One node's shape: up-triangle (max), down-triangle (min), circle (chance), square."""
    x, y = centre
    color = KIND_COLORS.get(kind, LEAF_COLOR)
    if kind == "max":
        points = [(x, y - size), (x - size, y + size * 0.8), (x + size, y + size * 0.8)]
    elif kind == "min":
        points = [(x, y + size), (x - size, y - size * 0.8), (x + size, y - size * 0.8)]
    elif kind == "chance":
        pygame.draw.circle(target, color, (x, y), size)
        if on_pv:
            pygame.draw.circle(target, PV_COLOR, (x, y), size, 2)
        return
    else:
        half = size * 0.75
        points = [(x - half, y - half), (x + half, y - half), (x + half, y + half),
                  (x - half, y + half)]
    pygame.draw.polygon(target, color, points)
    if on_pv and kind != "max":
        pygame.draw.polygon(target, PV_COLOR, points, 2)


LEGEND = (("max", "Pacman (max)"), ("min", "ghost (min)"), ("chance", "ghost (chance)"),
          ("leaf", "leaf"))


def draw_legend(target: pygame.Surface, start: tuple[float, float], right: float,
                height: int, small: pygame.font.Font) -> None:
    """The node shapes and what they are, from `start` rightwards while they fit."""
    x, top = start
    size = max(3.0, height * 0.3)
    for kind, text in LEGEND:
        label = small.render(text, True, TREE_TEXT)
        width = 2 * size + 4 + label.get_width() + 14
        if x + width > right:
            return
        draw_node(target, kind, (x + size, top + height / 2), size)
        target.blit(label, (x + 2 * size + 4, top + (height - label.get_height()) / 2))
        x += width
