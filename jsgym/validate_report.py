"""The validator's report: what ``jsgym validate`` prints and writes, rendered from
the :class:`~jsgym.validate.Report` the checks in :mod:`jsgym.validate` return (a
markdown table, the first divergent step, the heat map of where the frames differ and
the p5 calls drawn there, a QuickJS-vs-browser montage, one summary row per game).
Rendering only: nothing here runs a game."""

from __future__ import annotations

import pathlib

import numpy as np

from jsgym.validate import Report, _fmt, _fmt_region, psnr


def table(report: Report) -> str:
    """The checks as a markdown table."""
    lines = ["| check | result | details | s |", "|---|---|---|---|"]
    for r in report.results:
        mark = ("warn" if r.warning else "pass") if r.passed else "**FAIL**"
        text = r.message + (f" WARNING: {r.warning}" if r.warning else "")
        text = text.replace("|", "\\|").replace("\n", " ")
        lines.append(f"| {r.name} | {mark} | {text} | {r.seconds:.1f} |")
    return "\n".join(lines)


def montage(frames: list[tuple[str, np.ndarray, np.ndarray]], path, scale: int = 4) -> None:
    """Writes QuickJS (left) vs browser (right) frames side by side, one row per
    labelled pair, as a PNG."""
    from PIL import Image, ImageDraw

    if not frames:
        return
    h, w = frames[0][1].shape[:2]
    label_h = 14
    cell_w, cell_h = w * scale, h * scale
    img = Image.new("RGB", (2 * cell_w + 12, len(frames) * (cell_h + label_h + 6) + label_h),
                    (32, 32, 32))
    draw = ImageDraw.Draw(img)
    draw.text((4, 1), "QuickJS", fill=(255, 255, 255))
    draw.text((cell_w + 12, 1), "browser (p5.js)", fill=(255, 255, 255))
    y = label_h
    for label, fq, fb in frames:
        draw.text((4, y), f"{label}  PSNR {psnr(fq, fb):.1f} dB", fill=(255, 255, 0))
        y += label_h
        img.paste(Image.fromarray(fq).resize((cell_w, cell_h), Image.NEAREST), (0, y))
        img.paste(Image.fromarray(fb).resize((cell_w, cell_h), Image.NEAREST), (cell_w + 12, y))
        y += cell_h + 6
    img.save(path)


def write_report(report: Report, directory) -> pathlib.Path:
    """Writes ``<game>.md`` (the table) and ``<game>_montage.png`` into ``directory``;
    returns the markdown path."""
    out = pathlib.Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    md = out / f"{report.game}.md"
    png = out / f"{report.game}_montage.png"
    lines = [f"# jsgym validate: {report.game}", "",
             f"Result: **{'PASS' if report.passed else 'FAIL'}**", "", report.table(), ""]
    l3 = next((r for r in report.results if r.name == "L3 rollouts"), None)
    if l3 is not None and l3.details.get("divergence"):
        d = l3.details["divergence"]
        lines += ["## First divergent step", "",
                  f"seed {d['seed']} step {d['step']}", "",
                  f"- QuickJS: {_fmt(d['quickjs'])}", f"- browser: {_fmt(d['browser'])}", ""]
    if l3 is not None and l3.details.get("heat") is not None:
        heat_png = out / f"{report.game}_heat.png"
        l3.details["heat"].image().save(heat_png)
        lines += ["## Where the frames differ", "",
                  f"Mean squared difference per pixel over {l3.details['heat'].frames} frame "
                  "pairs (black: none, white: RMS 64 levels or more):", "",
                  f"![heat map]({heat_png.name})", ""]
        lines += _region_lines(l3.details)
    if report.frames:
        montage(report.frames, png)
        lines += ["## Frames (QuickJS left, browser right)", "", f"![montage]({png.name})", ""]
    md.write_text("\n".join(lines), encoding="utf-8")
    return md


def _region_lines(d: dict) -> list[str]:
    """The region that differs most over all frames and the one where the worst frame
    differs most, each with the calls drawn there (topmost first) in the frame named."""
    def calls(r):
        return [f"- `{c}`" for c in r["calls"]] or ["- (no drawing call found there)"]

    r, w = d["region"], d["psnr_worst_at"]
    f = r.get("frame") or w
    lines = [f"Over all frames, differs most at {_fmt_region(r)}. Drawn there in seed "
             f"{f['seed']} step {f['step']} (the frame where this region differs most), "
             "topmost first:", "", *calls(r), ""]
    wr = d.get("worst_frame_region")
    worst = f"The worst frame (seed {w['seed']} step {w['step']}, PSNR {d['psnr_worst']:.1f} dB)"
    if wr is None:
        return lines
    if wr["obs"] == r["obs"] and (f["seed"], f["step"]) == (w["seed"], w["step"]):
        return lines + [f"{worst} is that frame and differs most in that region too.", ""]
    return lines + [f"{worst} differs most at {_fmt_region(wr)}. Drawn there in that frame, "
                    "topmost first:", "", *calls(wr), ""]


def summary_row(report: Report) -> dict:
    """One line of the all-games table: L3 result, PSNR median/worst."""
    l3 = next((r for r in report.results if r.name == "L3 rollouts"), None)
    l2 = next((r for r in report.results if r.name == "L2 call stream"), None)
    row = {"game": report.game, "passed": report.passed,
           "failed": [r.name for r in report.results if not r.passed]}
    if l2 is not None:
        row["l2"] = "identical" if l2.passed else l2.message
    if l3 is not None and l3.details:
        row["warning"] = l3.warning
        row.update(l3="identical" if l3.details.get("divergence") is None else
                   f"diverges at seed {l3.details['divergence']['seed']} step "
                   f"{l3.details['divergence']['step']}",
                   psnr_median=l3.details["psnr_median"], psnr_worst=l3.details["psnr_worst"],
                   steps=l3.details["steps"])
    return row

