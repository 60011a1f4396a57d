"""The fonts both backends draw text with: the pinned font files, how p5's family names
resolve to them as Chromium resolves them, the fontconfig configuration the browser
backend's Chromium runs with (so that it sees exactly these files), and the compact
face tables the fast backend reads (compiled once per font file with fontTools and
HarfBuzz, and cached).

The font files come from Debian's packages (``FONT_PACKAGES``; ``scripts/test.sh``
installs them). The build copies them, their licences and their compiled face tables
into the package (``jsgym/_fonts/``, see ``bundle``), so that an installed wheel needs
nothing else and both backends draw with the same files on any machine.
``JSGYM_FONT_DIR`` (a folder holding the same file names) overrides both.

A face table (``compile_face``) is little-endian::

    header   magic 'JGF1', version u16, units_per_em u16, num_glyphs u16, flags u16,
             hhea ascent i16, descent i16, line_gap i16, OS/2 typo ascent i16,
             typo descent i16, typo line gap i16, win ascent u16, win descent u16,
             counts u32 x 4 (cmap entries, kern pairs, ligatures, outline bytes)
    cmap     (codepoint u32, glyph u16, 0 u16) x n, sorted by codepoint
    advances u16 x num_glyphs (padded to 4 bytes)
    offsets  u32 x (num_glyphs + 1): byte offsets of each glyph's outline
    outlines per glyph: x_min y_min x_max y_max i16, contours u16, points u16,
             contour end points u16 x contours, x y i16 x points,
             on-curve flags u8 x points (padded to 2 bytes)
    kern     (left u16, right u16, value i16, 0 u16) x n, sorted by (left, right)
    ligature (first u16, second u16, third u16 (0xFFFF: none), result u16) x n

Kerning pairs and ligatures are what HarfBuzz's shaping (features kern and liga) gives
for pairs and triples of the characters in ``SHAPED_CHARS``, in font units: the layout
of a line is then each glyph's advance plus the pair value, as HarfBuzz lays it out
for text of those characters.
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import struct
from dataclasses import dataclass

#: Debian packages that ship the pinned files.
FONT_PACKAGES = ("fonts-dejavu-core", "fonts-dejavu-extra", "fonts-liberation")
#: Where the packages put them.
SYSTEM_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation")
#: Their licences.
LICENSE_FILES = {f"{p}.copyright": f"/usr/share/doc/{p}/copyright" for p in FONT_PACKAGES}
#: The copies the build puts into the package.
BUNDLE_DIR = pathlib.Path(__file__).resolve().parent / "_fonts"

#: Each family the fast backend knows: its four faces (normal, bold, italic, bold
#: italic), by file name.
FAMILIES: dict[str, tuple[str, str, str, str]] = {
    "Liberation Sans": ("LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf",
                        "LiberationSans-Italic.ttf", "LiberationSans-BoldItalic.ttf"),
    "Liberation Serif": ("LiberationSerif-Regular.ttf", "LiberationSerif-Bold.ttf",
                         "LiberationSerif-Italic.ttf", "LiberationSerif-BoldItalic.ttf"),
    "Liberation Mono": ("LiberationMono-Regular.ttf", "LiberationMono-Bold.ttf",
                        "LiberationMono-Italic.ttf", "LiberationMono-BoldItalic.ttf"),
    "Liberation Sans Narrow": ("LiberationSansNarrow-Regular.ttf", "LiberationSansNarrow-Bold.ttf",
                               "LiberationSansNarrow-Italic.ttf",
                               "LiberationSansNarrow-BoldItalic.ttf"),
    "DejaVu Sans": ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf",
                    "DejaVuSans-BoldOblique.ttf"),
    "DejaVu Serif": ("DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSerif-Italic.ttf",
                     "DejaVuSerif-BoldItalic.ttf"),
    "DejaVu Sans Mono": ("DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf",
                         "DejaVuSansMono-Oblique.ttf", "DejaVuSansMono-BoldOblique.ttf"),
}

#: Names that resolve to another family (Chromium's generic families as it sets them
#: on Linux, and fontconfig's metric-compatible aliases), lower case.
ALIASES: dict[str, str] = {
    "sans-serif": "Liberation Sans", "arial": "Liberation Sans", "helvetica": "Liberation Sans",
    "serif": "Liberation Serif", "times new roman": "Liberation Serif",
    "times": "Liberation Serif",
    "monospace": "DejaVu Sans Mono",
    "courier new": "Liberation Mono", "courier": "Liberation Mono",
}
#: What an unknown family gets (Chromium's standard font).
STANDARD = "Liberation Serif"

#: The faces that draw what a face lacks, in order (file names), as fontconfig's
#: fallback gives Chromium here: DejaVu Sans for everything, except that the serif's
#: bold and italic styles first try DejaVu Serif. Chromium picks the regular or
#: oblique width of the fallback, never the bold one.
def _fallbacks(face_file: str) -> tuple[str, ...]:
    italic = any(k in face_file for k in ("Italic", "Oblique"))
    sans = "DejaVuSans-Oblique.ttf" if italic else "DejaVuSans.ttf"
    serif = "DejaVuSerif-Italic.ttf" if italic else "DejaVuSerif.ttf"
    if face_file.startswith("DejaVuSans") and not face_file.startswith("DejaVuSansMono"):
        return ()
    if face_file.startswith("LiberationSerif-") and not face_file.endswith("Regular.ttf"):
        return (serif, sans)
    return (sans,)

#: Characters whose pairs and triples are shaped for kerning and ligatures.
SHAPED_CHARS = "".join(chr(c) for c in list(range(0x20, 0x7F)) + list(range(0xA0, 0x100)))

_MAGIC = b"JGF1"
_VERSION = 1


def font_dirs() -> list[pathlib.Path]:
    """The folders searched for the pinned files: ``JSGYM_FONT_DIR``, the package's
    copies, the system's."""
    dirs = [BUNDLE_DIR] + [pathlib.Path(d) for d in SYSTEM_DIRS]
    extra = os.environ.get("JSGYM_FONT_DIR")
    return ([pathlib.Path(extra)] if extra else []) + dirs


def find_file(name: str) -> pathlib.Path:
    """The path of pinned font file ``name``.

    Raises:
        FileNotFoundError: not installed (the message says which packages to install).
    """
    for d in font_dirs():
        p = d / name
        if p.is_file():
            return p
    raise FileNotFoundError(
        f"font file {name} not found in {', '.join(map(str, font_dirs()))}: install the "
        f"Debian packages {' '.join(FONT_PACKAGES)} (scripts/setup_browser.sh does), or point "
        "JSGYM_FONT_DIR at a folder holding the same files")


def cache_dir() -> pathlib.Path:
    """Where compiled face tables and the fontconfig file live (``JSGYM_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/jsgym`` or ``~/.cache/jsgym``)."""
    base = os.environ.get("JSGYM_CACHE_DIR")
    if base:
        return pathlib.Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (pathlib.Path(xdg) if xdg else pathlib.Path.home() / ".cache") / "jsgym"


def fontconfig_file() -> pathlib.Path:
    """A fontconfig configuration that shows Chromium the pinned font folders and
    nothing else (with the system's substitution rules), so that the browser backend
    draws with the very files the fast backend reads. Written once into the cache."""
    dirs = sorted({str(find_file(f).parent) for faces in FAMILIES.values() for f in faces})
    body = "\n".join([
        '<?xml version="1.0"?>',
        '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
        "<fontconfig>",
        *(f"  <dir>{d}</dir>" for d in dirs),
        f"  <cachedir>{cache_dir() / 'fontconfig'}</cachedir>",
        '  <include ignore_missing="yes">/etc/fonts/conf.d</include>',
        "</fontconfig>",
        "",
    ])
    path = cache_dir() / f"fonts-{hashlib.sha256(body.encode()).hexdigest()[:12]}.conf"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(body)
        tmp.replace(path)
    return path


@dataclass(frozen=True)
class FontSet:
    """Every face the fast backend can draw with, and the family names that reach
    them: ``faces[i]`` is a compiled face table; ``families`` maps a lower-case name to
    the face indices of its four styles; ``standard`` is the family unknown names get."""

    faces: tuple[bytes, ...]
    families: dict[str, tuple[int, int, int, int]]
    standard: str
    #: the font file behind each face
    files: tuple[pathlib.Path, ...] = ()
    #: per face, the faces that draw the characters it lacks
    fallbacks: tuple[tuple[int, ...], ...] = ()


_FONT_SET: FontSet | None = None


def font_set() -> FontSet:
    """The process's font set (compiled on first use; cached on disk after that)."""
    global _FONT_SET
    if _FONT_SET is None:
        faces: list[bytes] = []
        paths: list[pathlib.Path] = []
        index: dict[str, int] = {}
        families: dict[str, tuple[int, int, int, int]] = {}
        for family, files in FAMILIES.items():
            ids = []
            for f in files:
                if f not in index:
                    index[f] = len(faces)
                    paths.append(find_file(f))
                    faces.append(compiled_face(paths[-1]))
                ids.append(index[f])
            families[family.lower()] = tuple(ids)  # type: ignore[assignment]
        for alias, family in ALIASES.items():
            families[alias] = families[family.lower()]
        fallbacks = tuple(tuple(index[f] for f in _fallbacks(p.name) if f in index) for p in paths)
        _FONT_SET = FontSet(tuple(faces), families, STANDARD.lower(), tuple(paths), fallbacks)
    return _FONT_SET


def freetype_library() -> str | None:
    """The FreeType the fast backend hints glyphs with, as Chromium does:
    ``JSGYM_FREETYPE`` if set, else the system's libfreetype.so.6 (the library Debian's
    Chromium draws with), else the copy the freetype-py package ships; None if none."""
    if os.environ.get("JSGYM_FREETYPE"):
        return os.environ["JSGYM_FREETYPE"]
    import ctypes.util

    system = ctypes.util.find_library("freetype")
    if system:
        return system
    try:
        import importlib.util

        spec = importlib.util.find_spec("freetype")
    except (ImportError, ValueError):
        spec = None
    if spec and spec.origin:
        bundled = pathlib.Path(spec.origin).parent / "libfreetype.so"
        if bundled.is_file():
            return str(bundled)
    return None


def _table_name(path: pathlib.Path) -> str:
    """The file name of a face table: the font's name and a hash of what it is
    compiled from."""
    key = hashlib.sha256(path.read_bytes() + struct.pack("<H", _VERSION)
                         + SHAPED_CHARS.encode()).hexdigest()[:20]
    return f"{path.stem}-{key}.jgf"


def compiled_face(path: pathlib.Path) -> bytes:
    """``compile_face(path)``, cached by the file's content."""
    name = _table_name(path)
    for d in (BUNDLE_DIR / "faces", cache_dir() / "faces"):
        if (d / name).is_file():
            return (d / name).read_bytes()
    cached = cache_dir() / "faces" / name
    table = compile_face(path)
    cached.parent.mkdir(parents=True, exist_ok=True)
    tmp = cached.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(table)
    tmp.replace(cached)
    return table


def compile_face(path: pathlib.Path) -> bytes:
    """The face table of a TrueType font file (see the module docstring)."""
    from fontTools.ttLib import TTFont

    font = TTFont(str(path))
    order = font.getGlyphOrder()
    gid = {name: i for i, name in enumerate(order)}
    if len(order) > 0xFFFF:
        raise ValueError(f"{path}: {len(order)} glyphs, more than a face table holds")
    head, hhea, os2 = font["head"], font["hhea"], font["OS/2"]
    glyf, hmtx = font["glyf"], font["hmtx"]
    cmap = sorted((cp, gid[name]) for cp, name in font.getBestCmap().items())
    advances = [hmtx[name][0] for name in order]
    outlines = bytearray()
    offsets = [0]
    for name in order:
        g = glyf[name]
        coords, ends, flags = g.getCoordinates(glyf)  # composites decomposed
        pts = [(int(round(x)), int(round(y))) for x, y in coords]
        if pts:
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            box = (min(xs), min(ys), max(xs), max(ys))
        else:
            box = (0, 0, 0, 0)
        out = struct.pack("<4h2H", *box, len(ends), len(pts))
        out += struct.pack(f"<{len(ends)}H", *ends)
        out += struct.pack(f"<{2 * len(pts)}h", *[v for p in pts for v in p])
        out += bytes(f & 1 for f in flags)
        if len(out) % 2:
            out += b"\0"
        outlines += out
        offsets.append(len(outlines))
    kern, ligs = _shaped_pairs(path, font, gid)
    use_typo = 1 if (os2.fsSelection >> 7) & 1 else 0
    header = struct.pack(
        "<4sHHHH3h3h2H4I", _MAGIC, _VERSION, head.unitsPerEm, len(order), use_typo,
        hhea.ascent, hhea.descent, hhea.lineGap, os2.sTypoAscender, os2.sTypoDescender,
        os2.sTypoLineGap, os2.usWinAscent, os2.usWinDescent, len(cmap), len(kern), len(ligs),
        len(outlines))
    parts = [header]
    parts.append(b"".join(struct.pack("<IHH", cp, g, 0) for cp, g in cmap))
    adv = struct.pack(f"<{len(advances)}H", *advances)
    parts.append(adv + b"\0" * (-len(adv) % 4))
    parts.append(struct.pack(f"<{len(offsets)}I", *offsets))
    parts.append(bytes(outlines))
    parts.append(b"".join(struct.pack("<HHhH", a, b, v, 0) for (a, b), v in sorted(kern.items())))
    parts.append(b"".join(struct.pack("<4H", *seq, res) for seq, res in sorted(ligs.items())))
    return b"".join(parts)


def _shaped_pairs(path, font, gid) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int, int], int]]:
    """HarfBuzz's kerning between glyph pairs, and its ligatures, for the characters of
    ``SHAPED_CHARS`` (font units)."""
    import uharfbuzz as hb

    face = hb.Face(hb.Blob.from_file_path(str(path)))
    hbfont = hb.Font(face)
    hbfont.scale = (face.upem, face.upem)
    cmap = font.getBestCmap()
    chars = [c for c in SHAPED_CHARS if ord(c) in cmap]
    nominal = {gid[n]: font["hmtx"][n][0] for n in font.getGlyphOrder() if n in gid}
    features = {"kern": True, "liga": True}

    def shape(text):
        buf = hb.Buffer()
        buf.add_str(text)
        buf.guess_segment_properties()
        hb.shape(hbfont, buf, features)
        return [(i.codepoint, p.x_advance) for i, p in zip(buf.glyph_infos, buf.glyph_positions)]

    kern: dict[tuple[int, int], int] = {}
    ligs: dict[tuple[int, int, int], int] = {}
    first = {c: gid[cmap[ord(c)]] for c in chars}
    for a in chars:
        for b in chars:
            out = shape(a + b)
            if len(out) == 2:
                (ga, xa), (gb, _) = out
                if ga == first[a] and gb == first[b] and xa != nominal[ga]:
                    kern[(ga, gb)] = xa - nominal[ga]
            elif len(out) == 1:
                ligs[(first[a], first[b], 0xFFFF)] = out[0][0]
    # three-character ligatures start with a two-character one (ffi starts with ff)
    letters = [c for c in chars if c.isalpha()]
    for a in chars:
        for b in chars:
            if (first[a], first[b], 0xFFFF) not in ligs:
                continue
            for c in letters:
                out = shape(a + b + c)
                if len(out) == 1:
                    ligs[(first[a], first[b], first[c])] = out[0][0]
    return kern, ligs


def bundle(dest: pathlib.Path) -> None:
    """Copies every pinned font file, the packages' licences and the compiled face
    tables into ``dest`` (the build runs this for ``jsgym/_fonts/``)."""
    import shutil

    dest.mkdir(parents=True, exist_ok=True)
    (dest / "faces").mkdir(exist_ok=True)
    for faces in FAMILIES.values():
        for f in faces:
            src = find_file(f)
            if src.resolve() != (dest / f).resolve():
                shutil.copyfile(src, dest / f)
    for name, src in LICENSE_FILES.items():
        if os.path.isfile(src):
            shutil.copyfile(src, dest / name)
    for faces in FAMILIES.values():
        for f in faces:
            out = dest / "faces" / _table_name(dest / f)
            if not out.is_file():
                out.write_bytes(compiled_face(dest / f))


if __name__ == "__main__":  # run as a script by rasterizer/build.rs (no package import)
    import sys

    if len(sys.argv) != 3 or sys.argv[1] != "bundle":
        sys.exit("usage: fonts.py bundle DEST")
    try:
        bundle(pathlib.Path(sys.argv[2]))
    except (FileNotFoundError, ImportError) as exc:
        sys.exit(f"fonts not bundled: {exc}")
