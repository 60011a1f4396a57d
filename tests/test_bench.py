"""Smoke tests of the benchmark scripts: each runs with a tiny budget on one or two
games and writes its result files with the expected columns. The baseline columns
(ale-py, EnvPool) are exercised only where those packages are installed; a run with
them hidden checks that a missing baseline is reported and left n/a."""

from __future__ import annotations

import csv
import importlib.util
import os
import pathlib
import subprocess
import sys
from collections import Counter

import pytest

from conftest import REPO

BENCH = REPO / "bench"
TINY = ["--seconds", "0.05", "--windows", "1", "--warmup", "0"]


def has(module: str) -> bool:
    if importlib.util.find_spec(module) is None:
        return False
    try:  # EnvPool's procgen also needs the system Qt5 library
        __import__(module)
        return True
    except Exception:
        return False


HAS_ALE = has("ale_py")
HAS_ENVPOOL = has("envpool")


def run(script: str, *args: str, prelude: str = "") -> str:
    """Runs bench/<script> in a subprocess (as a script, like a user would) and
    returns its stdout."""
    code = (f"import sys; sys.path.insert(0, {str(BENCH)!r}); {prelude}"
            f"import runpy; sys.argv = [{script!r}] + {list(args)!r}; "
            f"runpy.run_path({str(BENCH / script)!r}, run_name='__main__')")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                         text=True, timeout=120, env=dict(os.environ, PYTHONHASHSEED="0"))
    assert out.returncode == 0, f"{script} failed:\n{out.stdout}\n{out.stderr}"
    return out.stdout


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_compare_writes_tables_csv_and_chart(tmp_path):
    extra = [] if (HAS_ALE or HAS_ENVPOOL) else ["--no-baselines"]
    run("compare.py", "pong", "bigfish", *TINY, "--batch", "2", "--out-dir", str(tmp_path),
        *extra)
    md = (tmp_path / "compare.md").read_text()
    for heading in ("## Atari", "## ProcGen", "## Summary", "other load", "- machine:",
                    "jsgym build:", "step() floor"):
        assert heading in md
    rows = read_csv(tmp_path / "compare.csv")
    configs = {(r["game"], r["config"]) for r in rows}
    assert {("pong", "jsgym_1"), ("pong", "jsgym_b"), ("bigfish", "jsgym_1"),
            ("bigfish", "jsgym_b")} <= configs
    if HAS_ALE:
        assert {("pong", "ale_1"), ("pong", "ale_b"), ("pong", "ale_v5")} <= configs
    if HAS_ENVPOOL:
        assert {("bigfish", "envpool_1"), ("bigfish", "envpool_b")} <= configs
    for r in rows:
        if not r.get("error"):
            assert float(r["steps_per_s_median"]) > 0
            assert float(r["other_load_cores_mean"]) >= 0
    if importlib.util.find_spec("matplotlib"):
        assert (tmp_path / "compare.png").stat().st_size > 0


def test_compare_reports_missing_baselines(tmp_path):
    # sys.modules[name] = None makes `import name` fail, as if it were not installed
    run("compare.py", "pong", *TINY, "--batch", "2", "--out-dir", str(tmp_path),
        prelude="sys.modules['ale_py'] = None; sys.modules['envpool'] = None; ")
    md = (tmp_path / "compare.md").read_text()
    assert "**ale-py missing**" in md and "**envpool missing**" in md
    assert "pip install -e .[bench]" in md
    pong = next(line for line in md.splitlines() if line.startswith("| pong |"))
    assert "n/a" in pong
    assert {r["config"] for r in read_csv(tmp_path / "compare.csv")} == {"jsgym_1", "jsgym_b"}


def test_scaling_writes_speedups(tmp_path):
    threads = ["1", "2"] if len(os.sched_getaffinity(0)) >= 2 else ["1"]
    impl = "both" if HAS_ENVPOOL else "jsgym"
    run("scaling.py", "pong", *TINY, "--envs", "4", "--threads", *threads, "--impl", impl,
        "--out-dir", str(tmp_path))
    md = (tmp_path / "scaling.md").read_text()
    assert "| game | impl | mode | 1 thread |" in md and "## Summary" in md
    rows = read_csv(tmp_path / "scaling.csv")
    impls = {r["impl"] for r in rows}
    assert "jsgym" in impls and (("envpool" in impls) == HAS_ENVPOOL)
    assert {r["threads"] for r in rows} == set(threads)
    for r in rows:
        assert float(r["steps_per_s_median"]) > 0 and float(r["efficiency"]) > 0


def test_profile_splits_a_step_and_compares_runs(tmp_path):
    budget = [*TINY, "--envs", "2", "--record-steps", "20", "--samples", "4",
              "--replay-seconds", "0.05"]
    first = tmp_path / "before"
    run("profile.py", "pong", *budget, "--out-dir", str(first))
    rows = read_csv(first / "profile.csv")
    assert [r["game"] for r in rows] == ["pong"]
    r = rows[0]
    for col in ("wall_us", "p5_calls", "logic_us", "shim_us", "raster_us", "copy_us",
                "other_us", "rasterized", "top"):
        assert r[col] != "", col
    assert float(r["p5_calls"]) > 0 and float(r["shim_us"]) >= 0
    js = float(r["logic_us"]) + float(r["shim_us"])
    assert js == pytest.approx(float(r["js_us"]), rel=1e-3, abs=1e-3)
    assert "rect" in r["top"]  # pong draws its paddles and ball with rect()
    md = (first / "profile.md").read_text()
    assert "| game | steps/s | us/step | p5 calls |" in md and "hot spot" in md

    second = tmp_path / "after"
    run("profile.py", "pong", *budget, "--no-attribution", "--baseline",
        str(first / "profile.csv"), "--out-dir", str(second))
    assert "## Before and after" in (second / "profile.md").read_text()


def test_throughput_still_runs_with_shared_helpers(tmp_path):
    out = tmp_path / "throughput.md"
    run("throughput.py", "pong", "--envs", "2", "--seconds", "0.05", "--windows", "1",
        "--mem-envs", "2", "--out", str(out))
    assert "| pong |" in out.read_text()


def test_ab_compares_two_libraries_side_by_side():
    # the installed library against itself: both sides measured, a ratio near 1 printed
    import jsgym._native as native

    lib = sorted(pathlib.Path(native.__file__).parent.glob("*.so"))[0]
    out = subprocess.run([sys.executable, str(BENCH / "ab.py"), "catch", "--before-lib", str(lib),
                          "--after-lib", str(lib), "--reps", "2", "--seconds", "0.05",
                          "--windows", "1", "--envs", "2"],
                         capture_output=True, text=True, check=True).stdout
    row = next(line for line in out.splitlines() if line.startswith("| catch |"))
    cells = [c.strip() for c in row.split("|")]
    before, after, ratio = (float(c.replace(",", "")) for c in cells[2:5])
    assert before > 0 and after > 0
    assert ratio == pytest.approx(after / before, rel=2e-3)
    assert len(cells[5].split(";")) == 2  # the runs of each side


def test_game_ab_passes_an_identical_rewrite_and_fails_a_changed_one(tmp_path):
    """game_ab.py is the gate for rewriting a game for speed: a copy that behaves the
    same passes, one changed colour (same rewards, other frames) fails."""
    src = (REPO / "jsgym" / "games" / "catch.js").read_text()
    same = tmp_path / "same" / "catch.js"
    same.parent.mkdir()
    same.write_text("// reformatted copy\n" + src)
    changed = tmp_path / "changed" / "catch.js"
    changed.parent.mkdir()
    assert "background(" in src
    changed.write_text(src.replace("background(", "background(1 + 0 * ", 1))
    args = ["catch", "--seeds", "2", "--steps", "40", "--reps", "1", "--seconds", "0.05",
            "--envs", "2", "--before-file", str(same)]
    out = run("game_ab.py", *args)
    assert "| catch | identical |" in out
    code = (f"import sys; sys.path.insert(0, {str(BENCH)!r}); import runpy; "
            f"sys.argv = ['game_ab.py'] + {args + ['--after-file', str(changed)]!r}; "
            f"runpy.run_path({str(BENCH / 'game_ab.py')!r}, run_name='__main__')")
    bad = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                         text=True, timeout=120)
    assert bad.returncode == 1, bad.stderr
    assert "| catch | DIFFERENT |" in bad.stdout


def test_ceiling_bounds_each_ratio_by_the_interpreter_time(tmp_path):
    prof = tmp_path / "profile.csv"
    prof.write_text("game,wall_us,logic_us,shim_us\n"
                    "pong,5.0,1.0,1.0\n"        # JS 2 us: 500k/s; logic 1 us: 1M/s
                    "bigfish,30.0,8.0,2.0\n")   # JS 10 us: 100k/s; logic 8 us: 125k/s
    comp = tmp_path / "compare.csv"
    comp.write_text("game,suite,config,steps_per_s_median\n"
                    "pong,atari,jsgym_b,200000\npong,atari,ale_b,10000\npong,atari,ale_1,20000\n"
                    "bigfish,procgen,jsgym_b,33000\nbigfish,procgen,envpool_b,50000\n"
                    "bigfish,procgen,envpool_1,25000\n")
    out = tmp_path / "ceiling.md"
    run("ceiling.py", "--profile", str(prof), "--compare", str(comp), "--out", str(out))
    text = out.read_text()
    assert "| pong | 1.0 | 1.0 | 5.0 | 20.00x | 50.00x | 100.00x |" in text
    assert "| bigfish | 8.0 | 2.0 | 30.0 | 0.66x | 2.00x | 2.50x |" in text
    summary = text.split("## Summary")[1]
    assert "| procgen | B:B (jsgym 16 envs / EnvPool 16 envs) | 0.66x | 2.00x | 2.50x | >= 3x | 1 of 1 |" in summary


def load_bench(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_instructions_splits_self_costs_by_function_and_layer(capsys):
    """instructions.py --functions: a function's inlined lines (other files) and its
    lines without a file (???) count as its own, a recursive copy (f'2) is the same
    function, each lands in its layer (a file one game's profile lacks taken from
    another's), and the report's shares are of each game's total."""
    instructions = load_bench("instructions")
    annotate = """--------------------------------------------------------------------------------
1,000 (100.0%)  PROGRAM TOTALS

--------------------------------------------------------------------------------
Ir                   file:function
--------------------------------------------------------------------------------
400 (40.00%)  /b/out/quickjs_patched/quickjs.c:JS_CallInternal'2 [/lib/lib_native.so]
100 (10.00%)  /b/vendor/quickjs/quickjs.h:JS_CallInternal
250 (25.00%)  /w/rasterizer/src/seams.rs:jsgym_native::seams::MaskRec::add [/lib/lib_native.so]
 50 ( 5.00%)  /rustc/abc/library/core/src/num/f32.rs:jsgym_native::seams::MaskRec::add
150 (15.00%)  /w/p5shim/src/p5_color.c:js_p5_lerp_color [/lib/lib_native.so]
 20 ( 2.00%)  ???:js_p5_lerp_color [/lib/lib_native.so]
 50 ( 5.00%)  ./string/../sysdeps/x86_64/multiarch/memmove-vec-unaligned-erms.S:__memcpy_avx_unaligned_erms [/usr/lib/libc.so.6]

-- Auto-annotated source: /w/rasterizer/src/seams.rs
999 (99.9%)  => /w/rasterizer/src/seams.rs:jsgym_native::seams::MaskRec::add (12x)
"""
    costs = instructions.parse_self_costs(annotate)
    interp = ("JS_CallInternal", "/b/out/quickjs_patched/quickjs.c")
    add = ("jsgym_native::seams::MaskRec::add", "/w/rasterizer/src/seams.rs")
    assert costs == {interp: 500, add: 300, ("js_p5_lerp_color", "/w/p5shim/src/p5_color.c"): 170,
                     ("__memcpy_avx_unaligned_erms", "./string/../sysdeps/x86_64/multiarch/memmove-vec-unaligned-erms.S"): 50}
    assert [instructions.layer_of(k) for k in costs] == ["JS interpreter", "rasterizer", "p5 shim", "libc"]
    assert instructions.short_name(add) == "MaskRec::add (src/seams.rs)"
    unknown = instructions.parse_self_costs(" 10 ( 1.00%)  ???:JS_CallInternal [/lib/lib_native.so]\n")
    assert unknown == {("JS_CallInternal", "???"): 10}
    instructions.report_functions({"a.js": (1000.0, costs), "b.js": (10.0, Counter({add: 10})),
                                   "c.js": (10.0, unknown)}, 2)
    out = capsys.readouterr().out
    assert "| a.js | 1,000 | 49% | 17% | 0% | 29% | 5% | 0% |" in out
    assert "| c.js | 10 | 100% | 0% | 0% | 0% | 0% | 0% |" in out
    # MaskRec::add: 300 of a.js's 1,020 and all of b.js, none of c.js
    assert "| `MaskRec::add (src/seams.rs)` | rasterizer | 43.14% | 100.0% | 2 |" in out


def test_instructions_reads_every_event_of_a_callgrind_output():
    """instructions.py --cache: each event's total by the name callgrind's `events:`
    line gives it, from `summary:` (or `totals:`), whatever the events' order."""
    instructions = load_bench("instructions")
    out = "version: 1\nevents: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nfn=(1) f\n0 5 1\nsummary: 900 40 30 7 6 5 4 3 2\n"
    assert instructions.events_of(out) == {"Ir": 900, "Dr": 40, "Dw": 30, "I1mr": 7, "D1mr": 6, "D1mw": 5,
                                           "ILmr": 4, "DLmr": 3, "DLmw": 2}
    assert instructions.events_of("events: Ir\ntotals: 123\n") == {"Ir": 123}
    # (the cache model's events are the ones it names)
    assert {e for e, _ in instructions.CACHE_EVENTS} <= set(instructions.events_of(out))
