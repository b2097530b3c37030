"""What every self-contained page of `pacman.web` is made of: its data as JSON inside a
`<script>` element, its inlined assets, the page around them, and the file it is written to.

One job: the safe assembly of a one-file HTML page. `script_json` writes data so that it can
sit inside `<script type="application/json">` whatever its strings hold; `inline_asset` reads
a script or style shipped in `pacman/web/assets/` and refuses one that would end its element;
`page_shell` puts a body, a style, the data and a script into a whole page whose content
security policy forbids every outside request; `write_page` writes a page and turns any
failure to do so into a one-line `PageError`. `hex_color` writes an RGB colour for SVG and CSS.

The replay viewer (`pacman.web.replay_page`) uses all of it; the search-tree page
(`pacman.web.tree_page`) uses `script_json` and `inline_asset` inside its own, older page
skeleton.
"""

from __future__ import annotations

import html
import json
from importlib import resources
from pathlib import Path
from typing import Any

from pacman.errors import PageError

__all__ = ["CONTENT_SECURITY_POLICY", "hex_color", "inline_asset", "page_shell", "script_json",
           "write_page"]

_PACKAGE = "pacman.web"  # the assets are package data in its folder assets/
#: the page may load nothing: no request leaves it, whatever its data holds
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'unsafe-inline'; "
                           "style-src 'unsafe-inline'; img-src data:")
#: what `script_json` writes as a `\u` escape: what could end or change the script element
#: (`</script>`, `<!--`, an entity), and the two line separators older JavaScript refused
_ESCAPES = (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e"),
            ("\u2028", "\\u2028"), ("\u2029", "\\u2029"))


def script_json(data: Any, *, ascii_only: bool = False) -> str:
    """`data` as JSON safe inside `<script type="application/json">`.

    The JSON is compact (no spaces after `,` and `:`). Every `<`, `>` and `&` is written as a
    `\\u` escape (so `</script>` or `<!--` in a label cannot end or change the element), and
    so are U+2028 and U+2029; `JSON.parse` (and `json.loads`) read the same values back. With
    `ascii_only`, every other non-ASCII character is a `\\u` escape too (the text is then pure
    ASCII); without it, such characters are written as they are. NaN and infinities are
    refused with a ValueError (they are not JSON).
    """
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=ascii_only, allow_nan=False)
    for raw, escaped in _ESCAPES:
        text = text.replace(raw, escaped)
    return text


def inline_asset(name: str) -> str:
    """The text of `pacman/web/assets/NAME` (package data), ready to inline in a page.

    Raises ValueError if it holds a closing tag of the element it goes into (`</script` or
    `</style`, in any case), which would end that element early.
    """
    text = resources.files(_PACKAGE).joinpath("assets").joinpath(name).read_text(
        encoding="utf-8")
    lowered = text.lower()
    for tag in ("</script", "</style"):
        if tag in lowered:
            raise ValueError(f"asset {name} holds {tag!r}: it cannot be inlined")
    return text


def page_shell(title: str, body: str, *, css: str, js: str, data: Any,
               data_id: str = "page-data", csp: str = CONTENT_SECURITY_POLICY) -> str:
    """A whole self-contained page: `body` (markup), the style, the data and the script
    inline, and a content security policy that forbids every outside request.

    `title` and `data_id` are HTML-escaped; `body`, `css` and `js` go in as they are. The data
    is `script_json(data)` in `<script type="application/json" id="DATA_ID">`, before the
    script, which may read it with `JSON.parse(document.getElementById(DATA_ID).textContent)`.
    `csp` replaces the policy (the live view's page also talks to its own server).
    """
    policy = html.escape(csp, quote=False).replace('"', "&quot;")  # the default is unchanged
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<link rel=\"icon\" href=\"data:,\">\n"
        f"<title>{html.escape(title)}</title>\n<style>\n{css}\n</style>\n</head>\n<body>\n"
        f"{body}\n"
        f"<script type=\"application/json\" id=\"{html.escape(data_id)}\">{script_json(data)}"
        f"</script>\n<script>\n{js}\n</script>\n</body>\n</html>\n")


def write_page(text: str, path: str | Path) -> Path:
    """Write a page's text to `path` as UTF-8, making its folder; returns the path.

    Any failure is a one-line `PageError` "cannot write PATH: REASON": "a part of its folder
    is a file" when a folder on the way is a file, else the system's reason (e.g.
    "Permission denied").
    """
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except (FileExistsError, NotADirectoryError):
        raise PageError(f"cannot write {path}: a part of its folder is a file") from None
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise PageError(f"cannot write {path}: {reason}") from None
    return path


def hex_color(color: tuple[int, int, int]) -> str:
    """An RGB colour (0-255 each) as `#rrggbb`, for SVG and CSS."""
    return "#{:02x}{:02x}{:02x}".format(*color)
