"""The names of p5.js 1.11's global-mode API that cannot apply to a jsgym game, and why.

Every other name real p5.js 1.11.13 puts in a global-mode sketch's scope exists in
the QuickJS backend with p5's behaviour. Each name here is refused there instead:
calling it (reading it, for a variable) throws ``jsgym: NAME ... is not supported
(...)``, so a game that needs one fails at once with the reason rather than
drifting from the browser; the names in :data:`UNDEFINED` are not defined at all. (createCanvas(w, h, WEBGL), blendMode(REMOVE) and
blendMode(REPLACE) are refused the same way; the functions themselves exist. ``drawingContext``
exists with the canvas 2D context's shadow, line dash, ``globalAlpha`` and
``save``/``restore`` only; any other member of it is refused by name.)

This table is the one place the list lives: ``tests/test_p5_api.py`` enumerates the
real p5's global names in Chromium and fails on any name that is neither implemented
in QuickJS nor listed here, and on a listed name that QuickJS implements; the
"p5 API coverage" section of ``docs/games.md`` is :func:`markdown` verbatim
(``python -m jsgym.p5_coverage`` prints it).
"""

from __future__ import annotations

#: category -> (why it cannot apply, the names). Names are sorted within a category.
NOT_APPLICABLE: dict[str, tuple[str, tuple[str, ...]]] = {
    "DOM": (
        "a game has no page: no DOM elements, document, URL or canvas element",
        ("canvas", "createA", "createButton", "createCheckbox", "createColorPicker",
         "createDiv", "createElement", "createFileInput", "createImg", "createInput",
         "createP", "createRadio", "createSelect", "createSlider", "createSpan",
         "exitPointerLock", "fullscreen", "getURL", "getURLParams",
         "getURLPath", "noCanvas", "remove", "removeElements", "requestPointerLock",
         "select", "selectAll"),
    ),
    "window": (
        "games draw on a fixed canvas (createCanvas(w, h)); the window's size and "
        "shape differ from one browser to the next",
        ("deviceOrientation", "displayHeight", "displayWidth", "windowHeight", "windowWidth"),
    ),
    "media": (
        "images, graphics buffers, video, audio and the camera: jsgym draws shapes and text",
        ("createAudio", "createCapture", "createGraphics", "createImage", "createVideo",
         "image", "imageMode", "noTint", "tint"),
    ),
    "loading": (
        "a game is one self-contained file: nothing is loaded or fetched",
        ("httpDo", "httpGet", "httpPost", "loadBytes", "loadFont", "loadImage", "loadJSON",
         "loadModel", "loadShader", "loadStrings", "loadTable", "loadXML",
         "registerPromisePreload"),
    ),
    "files": (
        "a game writes nothing: no saved files or downloads",
        ("createWriter", "downloadFile", "encodeAndDownloadGif", "save", "saveCanvas",
         "saveFrames", "saveGif", "saveJSON", "saveJSONArray", "saveJSONObject",
         "saveStrings", "saveTable", "writeFile"),
    ),
    "storage": (
        "browser storage outlives the page: it would carry state across episodes and envs",
        ("clearStorage", "getItem", "removeItem", "storeItem"),
    ),
    "pixels": (
        "the rasterizer draws each frame at observation size, so the canvas's own pixels "
        "never exist: reading or writing them could not match the browser",
        ("blend", "copy", "filter", "get", "getFilterGraphicsLayer", "loadPixels",
         "pixels", "set", "updatePixels"),
    ),
    "compositing": (
        "erasing and clipping masks are not implemented by the rasterizer",
        ("beginClip", "clip", "endClip", "erase", "noErase"),
    ),
    "WEBGL": (
        "3D (createCanvas(w, h, WEBGL)): jsgym renders 2D canvases only",
        ("ambientLight", "ambientMaterial", "baseColorShader", "baseMaterialShader",
         "baseNormalShader", "baseStrokeShader", "beginGeometry", "box", "buildGeometry",
         "camera", "clearDepth", "cone", "createCamera", "createFilterShader",
         "createFramebuffer", "createModel", "createShader", "cylinder", "debugMode",
         "directionalLight", "ellipsoid", "emissiveMaterial", "endGeometry", "freeGeometry",
         "frustum", "imageLight", "lightFalloff", "lights", "linePerspective", "metalness",
         "model", "noDebugMode", "noLights", "normal", "normalMaterial", "orbitControl",
         "ortho", "panorama", "perspective", "plane", "pointLight", "resetShader", "rotateX",
         "rotateY", "rotateZ", "setAttributes", "setCamera", "shader", "shininess",
         "specularColor", "specularMaterial", "sphere", "spotLight", "texture", "textureMode",
         "textureWrap", "torus"),
    ),
    "add-ons": (
        "p5's hook machinery for add-on libraries: jsgym loads none",
        ("callRegisteredHooksFor",),
    ),
}


#: Listed names that stay undefined in QuickJS instead of refusing: docs/security.md
#: promises that no name of a host file API exists in a game's scope.
UNDEFINED: dict[str, str] = {
    "writeFile": "a host file API name (docs/security.md, tests/test_sandbox.py)",
}


def not_applicable() -> dict[str, str]:
    """Every listed name -> its category."""
    out: dict[str, str] = {}
    for category, (_, names) in NOT_APPLICABLE.items():
        for name in names:
            if name in out:
                raise ValueError(f"{name} is listed under both {out[name]} and {category}")
            out[name] = category
    return out


def markdown() -> str:
    """The "p5 API coverage" section of docs/games.md."""
    lines = [
        "## p5 API coverage",
        "",
        "Every function and variable that p5.js 1.11.13 gives a global-mode sketch exists in "
        "the QuickJS backend with p5's behaviour (the time functions read the virtual clock, "
        "`shuffle()` and `random()` the seeded streams, as in the browser backend), except "
        "the names below, which cannot apply to a game: calling one (or reading one, for "
        "a variable) throws `jsgym: NAME ... is not supported (...)` (`writeFile` is not "
        "defined at all: no host file API name exists in a game's scope, see "
        "[security](security.md)). "
        "`createCanvas(w, h, WEBGL)`, `blendMode(REMOVE)` and `blendMode(REPLACE)` (which "
        "make canvas pixels transparent) are refused too; the other blend modes draw as "
        "Chromium's canvas does. "
        "`drawingContext` has of the canvas 2D context its shadow (`shadowBlur`, "
        "`shadowColor`, `shadowOffsetX`, `shadowOffsetY`), line dash (`setLineDash()`, "
        "`getLineDash()`, `lineDashOffset`), `globalAlpha`, and `save()`/`restore()` of "
        "the context's own state; `push()` and `pop()` save and restore them as in p5, and "
        "they draw as Chromium draws them. Any other member of it throws "
        "`jsgym: drawingContext.NAME is not supported`. "
        "`day()`, `hour()` ... `year()` read `new Date()`, which follows the virtual clock "
        "(2024-01-01T00:00:00Z at frame 0 of every episode), in local time as p5 does; "
        "QuickJS and the browser backend's Chromium both take the host's time zone, so "
        "run with `TZ=UTC` to get the same dates on every machine. The list lives in "
        "`jsgym/p5_coverage.py`; `tests/test_p5_api.py` checks it against the real p5's "
        "global names.",
        "",
        "| category | why | names |",
        "|---|---|---|",
    ]
    for category, (why, names) in NOT_APPLICABLE.items():
        lines.append(f"| {category} | {why} | {', '.join(f'`{n}`' for n in names)} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
