"""A replay viewer and a play-in-the-browser table, served on a local web server (``python -m agent_zoo.viewer``).

Replays: PHH hand histories and language-model decision logs, stepped street by street and action by action
(``agent_zoo.viewer.library``). Every frame the page draws is computed by the rules core
(``agent_zoo.viewer.frames``); the page only displays them. Play: a person against a zoo agent at a table the
server holds (``agent_zoo.viewer.table``). The server is the standard library's ``http.server``
(``agent_zoo.viewer.server``); the page is plain HTML, CSS and JavaScript shipped in the package (``static/``).
See docs/viewer.md.
"""

from __future__ import annotations

from agent_zoo.viewer.library import Library, phh_replay
from agent_zoo.viewer.table import PlayTable

__all__ = ["Library", "PlayTable", "phh_replay"]
