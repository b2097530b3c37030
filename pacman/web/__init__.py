"""Self-contained HTML pages: the replay viewer and the search-tree view.

Every page is one static file (no server, no network, no external script, style or font):
the data is embedded as JSON and drawn by a small inline script. This package imports the
core (`pacman`, `agents`); the core never imports it.
"""
