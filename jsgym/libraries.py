"""Optional globals a game may use, loaded in both backends only for games that use
them: today matter-js as ``Matter`` (the npm package ``matter-js``, pinned in
``jsgym/web/package.json``; ``scripts/setup_browser.sh`` installs it).

A game uses a library when its source names the global (``Matter``). The library's
file and jsgym's glue for it (``jsgym/web/matter-glue.js``: its random source seeded from
the episode seed, its clock the virtual one) run before the game file, as a script of
their own (the game's line numbers stay its own).
"""

from __future__ import annotations

import re

#: global -> (npm package, file in the package, jsgym's glue file in jsgym/web/)
LIBRARIES: dict[str, tuple[str, str, str]] = {
    "Matter": ("matter-js", "build/matter.min.js", "matter-glue.js"),
}


def used_by(source: str) -> list[str]:
    """The library globals a game's source names."""
    return [name for name in LIBRARIES if re.search(rf"\b{name}\b", source)]


def library_source(source: str) -> str | None:
    """The script to run before the game file (``None``: the game uses no library).

    Raises:
        FileNotFoundError: a library the game uses is not installed (the message says
            how to install it).
    """
    from jsgym.browser_setup import npm_file, web_dir

    names = used_by(source)
    if not names:
        return None
    parts = []
    for name in names:
        package, path, glue = LIBRARIES[name]
        try:  # the checkout's npm ci in jsgym/web/, else the user cache (installed now)
            lib = npm_file(package, path)
        except (FileNotFoundError, RuntimeError) as exc:
            raise FileNotFoundError(f"the game uses the global {name}: the npm package "
                                    f"{package} is not installed ({exc})") from exc
        parts += [lib.read_text(encoding="utf-8"), (web_dir() / glue).read_text(encoding="utf-8")]
    return "\n;\n".join(parts) + "\n"
