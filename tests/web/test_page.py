"""The helpers every page of `pacman.web` is made with (`pacman.web.page`): data embedded in a
`<script>` element comes back whole and cannot end the element; a page that cannot be written
is a one-line `PageError`. No browser needed."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from pacman.errors import PageError
from pacman.web.page import page_shell, script_json, write_page

#: what must never appear raw in the script text: it would end the element, open an HTML
#: comment, or (U+2028, U+2029) break older JavaScript parsers
RAW = ("</script>", "</script", "<!--", "\u2028", "\u2029")

PAYLOAD: dict[str, Any] = {
    "label": "</script><script>alert(1)</script>",
    "comment": "<!-- <script> -->",
    "separators": "line\u2028paragraph\u2029end",
    "entity": "&amp; & <b>",
    "unicode": "café ☃",
    "nested": [{"k": "</SCRIPT>"}, 1, 2.5, None, True],
}


class _ScriptText(HTMLParser):
    """The text of the `<script>` element with a given id, as an HTML parser reads it (the
    element ends at the first `</script`)."""

    def __init__(self, element_id: str) -> None:
        super().__init__()
        self.element_id = element_id
        self.inside = False
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.inside = tag == "script" and ("id", self.element_id) in attrs

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self.inside = False

    def handle_data(self, data: str) -> None:
        if self.inside:
            self.texts.append(data)


def test_script_json_cannot_end_the_script_element() -> None:
    data = {"label": "</script><script>alert(1)</script> <!-- & \u2028", "n": [1, 2.5]}
    text = script_json(data)
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == data


@pytest.mark.parametrize("ascii_only", [False, True])
def test_script_json_round_trips_and_holds_no_raw_sequence(ascii_only: bool) -> None:
    text = script_json(PAYLOAD, ascii_only=ascii_only)
    assert json.loads(text) == PAYLOAD
    for raw in RAW:
        assert raw not in text
    assert "<" not in text and ">" not in text and "&" not in text
    assert text.isascii() == ascii_only  # "café ☃" is written as it is unless ascii_only


def test_data_embedded_in_a_page_parses_back_from_its_script_element() -> None:
    page = page_shell("a </script> title", "<main></main>", css="body{}", js="let x = 1;",
                      data=PAYLOAD, data_id="the-data")
    reader = _ScriptText("the-data")
    reader.feed(page)
    reader.close()
    assert len(reader.texts) == 1
    text = reader.texts[0]
    assert json.loads(text) == PAYLOAD
    for raw in RAW:
        assert raw not in text
    # the page holds exactly its two script elements: the data cannot have ended one early
    assert page.count("</script>") == 2


def test_nan_is_not_json() -> None:
    with pytest.raises(ValueError):
        script_json({"x": float("nan")})


def test_an_unwritable_page_is_a_one_line_page_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(PageError) as caught:
        write_page("<html></html>", blocker / "page.html")
    assert str(caught.value) == \
        f"cannot write {blocker / 'page.html'}: a part of its folder is a file"
    written = write_page("<html>é</html>", tmp_path / "a" / "b" / "page.html")
    assert written.read_text(encoding="utf-8") == "<html>é</html>"
