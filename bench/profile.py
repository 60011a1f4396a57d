"""Where a step's time goes, per game: p5 calls per step and the split of a step into
game logic, p5 shim calls, rasterization, copying and the rest (Python driver, pool
round trip, the frame dirty check), so that optimisation targets the real hot spot.
Writes bench/results/profile.md and profile.csv.

Two passes per game, one pinned core, one thread:

1. Timed pass: make_vec(game, --envs envs, num_threads=1, profile=True) stepped
   with random actions (resets included) through a warm-up and timed windows. The
   native counters (envs.profile(i), summed over the envs, deltas over the timed
   windows) give per step: JS time (game logic and p5 calls together: draw(), key
   events, getGameState(), resets), rasterization, copying, p5 calls made (native
   ones), and the share of frames rasterized (an unchanged opaque frame is not
   redrawn). "other" = wall time per step (1 / steps/s) minus those three.
2. Shim attribution (the operation-level method of the paper's section E.2, on the
   game's own calls): a copy of the game with every p5 global wrapped records which
   p5 functions it calls and with which arguments, on sampled frames of a random
   rollout (1 env), p5.Vector and p5.Color methods included. A generated game then
   replays exactly those calls, frame by
   frame, as straight-line code; its JS time per frame minus that of the same game
   with empty frames is the cost of the p5 calls (the call itself, argument
   conversion, the shim's work, recording draw commands). Scaled by the ratio of
   native p5 calls per step (timed pass / replay), it is the "shim" part of the JS
   time; the remainder is "logic". The three (replay, empty twin, and the game itself
   as a check that the replay draws what the game draws) run in alternating chunks
   and the medians are kept, so that other processes do not bias the difference.
   Calls whose arguments cannot be replayed (objects other than colours and vectors)
   are counted and left out, and so are createCanvas/noLoop/loop/redraw/print.

Figures include the profiler's own clock reads (a few per step) and the Python
driver (in "other"); the load of other processes is recorded per window.

Time at defaults (every bundled game, 16 envs, 3 windows of 1 s, 300 recorded
steps): about 2.5 minutes; --quick about 1 minute.

    python bench/profile.py                          # every bundled game
    python bench/profile.py --quick pong bigfish     # smoke run
    python bench/profile.py --baseline before.csv    # adds a before/after table
"""

from __future__ import annotations

import csv
import gc
import json
import math
import pathlib
import re
import statistics
import sys
import tempfile
import time

import numpy as np

import jsgym
from jsgym._core import eval_js

import common
from common import Measurement, fmt_rate, log, pinned

ACTION_ROWS = 4096
CONTRACT = {"setup", "draw", "resetGame", "getGameState", "mulberry32", "keyPressed",
            "keyReleased", "p5"}
JS_BUILTINS = {"parseInt", "parseFloat", "isNaN", "isFinite", "decodeURI",
               "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape",
               "unescape", "eval"}
NOT_REPLAYED = {"createCanvas", "resizeCanvas", "noLoop", "loop", "redraw", "print"}
PARTS = ("logic", "shim", "raster", "copy", "other")

# Wraps every p5 global of the env: counts top-level calls per function (calls made
# by p5 functions themselves are not counted again) and, while recording, keeps each
# call's name and arguments. Runs before the game's own code.
RECORDER = r"""
var __jgRec = (function (g, names) {
  'use strict';
  var counts = Object.create(null), depth = 0, recording = true, seq = [], bad = 0;
  var P5 = g.p5 || {};
  function enc(v) {
    switch (typeof v) {
      case 'number': return Number.isFinite(v) ? v : {$num: String(v)};
      case 'string': case 'boolean': return v;
      case 'undefined': return {$u: 1};
    }
    if (v === null) return null;
    if (Array.isArray(v)) return v.map(enc);
    if (P5.Color && v instanceof P5.Color) return {$color: Array.prototype.slice.call(v.levels)};
    if (P5.Vector && v instanceof P5.Vector) return {$vec: [v.x, v.y, v.z]};
    throw new TypeError('unreplayable');
  }
  // recv: how the replay names the receiver (a method's `this`), or null for a global
  function wrap(obj, key, label, method) {
    var f = obj[key];
    if (typeof f !== 'function') return;
    var w = function () {
      if (depth === 0) {
        counts[label] = (counts[label] || 0) + 1;
        if (recording) {
          try {
            var entry = [label, Array.prototype.map.call(arguments, enc)];
            if (method) entry.push(enc(this));
            seq.push(entry);
          } catch (e) { bad++; }
        }
      }
      depth++;
      try { return f.apply(this, arguments); } finally { depth--; }
    };
    Object.defineProperty(obj, key,
                          {value: w, writable: true, configurable: true, enumerable: false});
  }
  names.forEach(function (name) { wrap(g, name, name, false); });
  // p5.Vector and p5.Color methods, and p5.Vector's static functions, are p5 calls too
  [['p5.Vector', P5.Vector], ['p5.Color', P5.Color]].forEach(function (kv) {
    var cls = kv[1];
    if (!cls) return;
    Object.getOwnPropertyNames(cls.prototype).forEach(function (k) {
      if (k !== 'constructor') wrap(cls.prototype, k, kv[0] + '#' + k, true);
    });
    Object.getOwnPropertyNames(cls).forEach(function (k) {
      if (typeof cls[k] === 'function' && k !== 'prototype') wrap(cls, k, kv[0] + '.' + k, false);
    });
  });
  return {
    start: function () { recording = true; seq = []; bad = 0; },
    take: function () {
      var out = {calls: seq, unreplayable: bad};
      recording = false; seq = []; bad = 0;
      return out;
    },
    counts: function () { var c = counts; counts = Object.create(null); return c; },
  };
})(globalThis, __NAMES__);
"""


def p5_names() -> list[str]:
    """The p5 functions the shim installs (global functions that are neither the
    game contract nor ECMAScript built-ins)."""
    names = eval_js(
        "Object.getOwnPropertyNames(globalThis).filter(function (n) {"
        " var d = Object.getOwnPropertyDescriptor(globalThis, n);"
        " return d && 'value' in d && typeof d.value === 'function' && /^[a-z]/.test(n); })")
    return [n for n in names if n not in CONTRACT and n not in JS_BUILTINS]


# -- pass 1: timed, with the native counters -------------------------------------------

def profile_sum(envs) -> dict:
    total = {}
    for i in range(envs.num_envs):
        for k, v in envs.profile(i).items():
            total[k] = total.get(k, 0) + v
    return total


def timed_pass(game, args):
    gc.collect()
    with pinned([args.core]):
        envs = jsgym.make_vec(game, args.envs, num_threads=1, seed=0, profile=True,
                              game_options=common.jsgym_options(game, args.mode))
        try:
            envs.reset()
            acts = np.random.default_rng(0).integers(0, envs.single_action_space.n,
                                                     size=(ACTION_ROWS, args.envs))

            def step(i):
                envs.step(acts[i % ACTION_ROWS])

            if args.warmup > 0:
                common.timed_windows(step, env_steps_per_call=args.envs, seconds=args.warmup,
                                     windows=1, warmup=0)
            before = profile_sum(envs)
            m = common.timed_windows(step, env_steps_per_call=args.envs, seconds=args.seconds,
                                     windows=args.windows, warmup=0)
            after = profile_sum(envs)
        finally:
            envs.close()
    delta = {k: after[k] - before[k] for k in after}
    return m, delta


# -- pass 2: record the p5 calls, replay them -----------------------------------------

def record(game, names, args, tmp: pathlib.Path):
    """Runs an instrumented copy of the game (1 env) and returns (setup calls,
    sampled frames, calls per step by function, unreplayable calls)."""
    from jsgym.games import resolve
    _, path = resolve(game)
    game_src = path.read_text()
    # A game's own function or variable named like a p5 function replaces it (function
    # declarations are hoisted above the recorder): it is game logic, not a p5 call.
    # A local of that name excludes the p5 function too: an undercount at worst.
    own = set(re.findall(r"\b(?:function\s*\*?|var|let|const)\s+([A-Za-z_$][\w$]*)", game_src))
    names = [n for n in names if n not in own]
    src = RECORDER.replace("__NAMES__", json.dumps(names)) + "\n" + game_src
    inst = tmp / f"{path.stem}.js"
    inst.write_text(src)
    envs = jsgym.make_vec(str(inst), 1, num_threads=1, seed=0,
                          game_options=common.jsgym_options(game, args.mode))
    try:
        setup = envs.call_js("__jgRec.take()")
        envs.reset()
        envs.call_js("__jgRec.counts()")  # drop the first reset's calls
        acts = np.random.default_rng(1).integers(0, envs.single_action_space.n,
                                                 size=(args.record_steps, 1))
        frames, bad = [], 0
        every = max(1, args.record_steps // args.samples)
        for i in range(args.record_steps):
            sample = i % every == 0
            if sample:
                envs.call_js("__jgRec.start()")
            envs.step(acts[i])
            if sample:
                got = envs.call_js("__jgRec.take()")
                frames.append(got["calls"])
                bad += got["unreplayable"]
        counts = envs.call_js("__jgRec.counts()")
    finally:
        envs.close()
    per_step = {k: v / args.record_steps for k, v in counts.items()}
    return setup, frames, per_step, bad


class _Literals:
    """JS source for recorded arguments; colours and vectors become references to
    objects created once in setup()."""

    def __init__(self):
        self.colors, self.vectors = {}, {}

    def js(self, v) -> str:
        if isinstance(v, dict):
            if "$u" in v:
                return "undefined"
            if "$num" in v:
                return {"NaN": "NaN", "Infinity": "Infinity", "-Infinity": "-Infinity"}[v["$num"]]
            if "$color" in v:
                return f"__C[{self.colors.setdefault(tuple(v['$color']), len(self.colors))}]"
            if "$vec" in v:
                return f"__V[{self.vectors.setdefault(tuple(v['$vec']), len(self.vectors))}]"
            raise ValueError(f"unknown encoded value {v!r}")
        if isinstance(v, list):
            return "[" + ",".join(self.js(x) for x in v) + "]"
        return json.dumps(v)

    def call(self, name, args, recv=None) -> str:
        """One recorded call as a statement: ``name(args)``, or for a p5.Vector /
        p5.Color method (``p5.Vector#add``) ``receiver.add(args)``."""
        arg_list = ",".join(self.js(a) for a in args)
        if "#" in name:
            return f"{self.js(recv)}.{name.split('#', 1)[1]}({arg_list});"
        return f"{name}({arg_list});"


def replay_source(setup, frames, *, empty: bool) -> tuple[str, int]:
    """A game whose draw() replays the recorded frames in turn (or, with empty=True,
    runs empty frames through the same dispatch); returns (source, calls left out)."""
    lit = _Literals()
    skipped = 0
    setup_js = "\n".join(lit.call(*c) for c in setup["calls"])
    bodies = []
    for calls in frames:
        lines = []
        for c in calls:
            if c[0] in NOT_REPLAYED or ("#" in c[0] and not isinstance(c[2], dict)):
                skipped += 1  # (a method called on something other than a vector or colour)
                continue
            lines.append(lit.call(*c))
        bodies.append("" if empty else "\n".join(lines))
    objects = [f"__C.push(color({','.join(map(str, c))}));" for c in lit.colors] + \
              [f"__V.push(createVector({','.join(map(str, v))}));" for v in lit.vectors]
    src = "\n".join([
        "const __C = [], __V = [];",
        "let __i = 0;",
        "function setup() {", *objects, setup_js, "}",
        "function resetGame(seed) {}",
        "function getGameState() { return {score: 0, lives: 1, gameState: 'playing'}; }",
        "function mulberry32(a) { return function () { return 0.5; }; }",
        "const __F = [", ",\n".join(f"function () {{\n{b}\n}}" for b in bodies), "];",
        "function draw() { __F[__i++ % __F.length](); }",
    ])
    return src, skipped


def replay_costs(game, full: pathlib.Path, empty: pathlib.Path, frames: int, args):
    """Runs the replay game, its empty twin and the game itself (1 env each, random
    actions for the game) side by side on the pinned core, in alternating chunks of
    one cycle of the recorded frames. Returns the medians over chunks of (JS ns per
    frame of the replay - that of the empty twin) and of (raster ns per rasterized
    frame of the replay / that of the game: a check that the replay draws what the
    game draws), and the native p5 calls per replayed frame. Alternating chunks and
    medians keep preemption by other processes out of the figures."""
    chunk = max(frames, 8)
    noop = np.zeros(1, dtype=np.int64)
    with pinned([args.core]):
        pools = [jsgym.make_vec(str(p), 1, num_threads=1, seed=0, profile=True,
                                max_episode_steps=None) for p in (full, empty)]
        pools.append(jsgym.make_vec(game, 1, num_threads=1, seed=0, profile=True,
                                    game_options=common.jsgym_options(game, args.mode)))
        acts = np.random.default_rng(2).integers(0, pools[2].single_action_space.n,
                                                 size=(ACTION_ROWS, 1))
        steps = 0
        try:
            for envs in pools:
                envs.reset()
            diffs, calls, raster_ratios = [], [], []
            end = time.perf_counter() + args.replay_seconds
            first = True
            while first or time.perf_counter() < end or len(diffs) < 5:
                per_frame = []
                for j, envs in enumerate(pools):
                    p0 = envs.profile(0)
                    for _ in range(chunk):
                        envs.step(acts[steps % ACTION_ROWS] if j == 2 else noop)
                        steps += j == 2
                    p1 = envs.profile(0)
                    n = p1["frames"] - p0["frames"]
                    rasterized = p1["frames_rasterized"] - p0["frames_rasterized"]
                    per_frame.append(((p1["js_ns"] - p0["js_ns"]) / n,
                                      (p1["p5_calls"] - p0["p5_calls"]) / n,
                                      (p1["raster_ns"] - p0["raster_ns"]) / rasterized
                                      if rasterized else math.nan))
                if first:  # the first cycle warms up
                    first = False
                    continue
                diffs.append(per_frame[0][0] - per_frame[1][0])
                calls.append(per_frame[0][1])
                if per_frame[2][2] > 0:  # nan when the game drew no new frame
                    raster_ratios.append(per_frame[0][2] / per_frame[2][2])
        finally:
            for envs in pools:
                envs.close()
    check = statistics.median(raster_ratios) if raster_ratios else math.nan
    return statistics.median(diffs), statistics.fmean(calls), check


def attribute(game, names, args):
    """Returns (shim ns per replayed frame, native p5 calls per replayed frame, the
    replay's raster check, calls per step by function, unreplayable calls, calls left
    out, frames recorded)."""
    with tempfile.TemporaryDirectory() as d:
        tmp = pathlib.Path(d)
        setup, frames, per_step, bad = record(game, names, args, tmp)
        full, skipped = replay_source(setup, frames, empty=False)
        empty, _ = replay_source(setup, frames, empty=True)
        (tmp / "replay.js").write_text(full)
        (tmp / "replay_empty.js").write_text(empty)
        shim_ns, calls, check = replay_costs(game, tmp / "replay.js", tmp / "replay_empty.js",
                                             len(frames), args)
    return max(0.0, shim_ns), calls, check, per_step, bad, skipped, len(frames)


# -- report ----------------------------------------------------------------------------

def profile_game(game, names, args) -> dict:
    m, d = timed_pass(game, args)
    frames = max(1, d["frames"])
    # The counters cover every timed window: divide by the same windows' mean rate.
    wall = 1e9 / m.mean_rate  # ns per env step
    js, raster, copy = d["js_ns"] / frames, d["raster_ns"] / frames, d["copy_ns"] / frames
    native_calls = d["p5_calls"] / frames
    row = {"game": game, "measurement": m, "steps_per_s": m.mean_rate, "wall_us": wall / 1e3,
           "p5_calls": native_calls, "rasterized": d["frames_rasterized"] / frames,
           "js_us": js / 1e3, "raster_us": raster / 1e3, "copy_us": copy / 1e3,
           "other_us": max(0.0, wall - js - raster - copy) / 1e3}
    if args.no_attribution:
        row.update(shim_us=math.nan, logic_us=math.nan, top="", all_calls=math.nan)
        return row
    shim_frame, replay_calls, check, per_step, bad, skipped, n = attribute(game, names, args)
    scale = native_calls / replay_calls if replay_calls else 1.0
    shim = min(js, shim_frame * scale)
    top = sorted(per_step.items(), key=lambda kv: -kv[1])[:args.top]
    row.update(shim_us=shim / 1e3, logic_us=(js - shim) / 1e3,
               all_calls=sum(per_step.values()),
               top=", ".join(f"{k} {v:.1f}" for k, v in top),
               unreplayable=bad, left_out=skipped, sampled_frames=n, calls_scale=scale,
               replay_raster_ratio=check)
    return row


def hot_spot(r) -> str:
    parts = {p: r.get(f"{p}_us", math.nan) for p in PARTS}
    parts = {k: v for k, v in parts.items() if math.isfinite(v)}
    if not parts:
        return "n/a"
    k = max(parts, key=parts.get)
    return f"{k} ({parts[k] / r['wall_us']:.0%})"


def pct(r, part) -> str:
    v = r.get(f"{part}_us", math.nan)
    if not math.isfinite(v):
        return "n/a"
    return f"{v:.1f} ({v / r['wall_us']:.0%})"


def write_report(rows, args, out_dir: pathlib.Path, baseline: dict | None) -> str:
    lines = [
        "# Where a jsgym step goes: per-game profile",
        "",
        *common.machine_lines(),
        f"- protocol: one pinned core (CPU {args.core}), {args.envs} envs on one thread, "
        f"profile=True, random actions, resets included, {args.warmup} s warm-up, "
        f"{args.windows} windows of {args.seconds} s; times in us per env step "
        "(share of the wall time per step)",
        "- JS = logic + shim; shim = the game's own p5 calls, recorded on "
        f"{args.samples} sampled frames of a {args.record_steps}-step rollout and replayed "
        "(JS time of the replay minus that of empty frames), scaled by native p5 calls; "
        "logic = the rest of the JS time; other = wall - JS - raster - copy (Python "
        f"driver, spread over {args.envs} envs; pool round trip; frame dirty check)",
        "- p5 calls: native p5 calls per step (the runtime's counter, timed pass); all p5 "
        "and top p5 calls: every p5 global, p5.Vector / p5.Color method and p5.Vector "
        "static function the game called per step in the recorded rollout",
        common.load_line([r["measurement"] for r in rows]),
        "",
    ]
    header = ["game", "steps/s", "us/step", "p5 calls", "all p5", "logic", "shim", "raster",
              "copy", "other", "frames rasterized", "hot spot", "top p5 calls per step"]
    table = []
    for r in rows:
        all_calls = r.get("all_calls", math.nan)
        table.append([r["game"], fmt_rate(r["steps_per_s"]), f"{r['wall_us']:.1f}",
                      f"{r['p5_calls']:.0f}",
                      f"{all_calls:.0f}" if math.isfinite(all_calls) else "n/a",
                      pct(r, "logic"), pct(r, "shim"), pct(r, "raster"), pct(r, "copy"),
                      pct(r, "other"), f"{r['rasterized']:.0%}", hot_spot(r), r["top"]])
    lines += common.md_table(header, table) + [""]
    checks = [r["replay_raster_ratio"] for r in rows
              if math.isfinite(r.get("replay_raster_ratio", math.nan))]
    if checks:
        lines += [f"Replay check: raster time per rasterized frame of the replay / of the game "
                  f"(1 env each, alternating): {min(checks):.2f}-{max(checks):.2f}; near 1 when "
                  "the replay draws what the game draws.", ""]
    if any(r.get("unreplayable") or r.get("left_out") for r in rows):
        lines.append("Calls not replayed (shim time slightly under-estimated): " + ", ".join(
            f"{r['game']} {r.get('unreplayable', 0) + r.get('left_out', 0)}" for r in rows
            if r.get("unreplayable") or r.get("left_out")) + ".")
        lines.append("")
    if baseline:
        lines += ["## Before and after", "",
                  f"Before: `{args.baseline}`. Times in us per env step, before -> after.", ""]
        bt = []
        for r in rows:
            b = baseline.get(r["game"])
            if not b:
                continue
            cells = [r["game"], f"{float(b['wall_us']):.1f} -> {r['wall_us']:.1f}",
                     f"{float(b['wall_us']) / r['wall_us']:.2f}x"]
            for p in PARTS:
                old, new = b.get(f"{p}_us", ""), r.get(f"{p}_us", math.nan)
                cells.append(f"{float(old):.1f} -> {new:.1f}" if old not in ("", "nan")
                             and math.isfinite(new) else "n/a")
            bt.append(cells)
        lines += common.md_table(["game", "us/step", "speed-up", *PARTS], bt) + [""]
    text = "\n".join(lines)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "profile.md").write_text(text)
    csv_rows = []
    for r in rows:
        row = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in r.items()
               if k != "measurement"}
        fields = common.measurement_fields(r["measurement"])
        row.update({f"timed_{k}": v for k, v in fields.items()})
        row["envs"] = args.envs
        csv_rows.append(row)
    common.write_csv(out_dir / "profile.csv", csv_rows)
    return text


def main(argv=None):
    parser = common.parser_from_doc(__doc__)
    parser.add_argument("games", nargs="*", help="games (default: every bundled game)")
    parser.add_argument("--top", type=int, default=4, help="p5 functions listed per game (4)")
    parser.add_argument("--no-attribution", action="store_true",
                        help="skip pass 2 (no logic/shim split)")
    parser.add_argument("--baseline", type=pathlib.Path,
                        help="a profile.csv from before a change: adds a before/after table")
    common.add_profile_options(parser)
    args = parser.parse_args(argv)
    common.finish_profile_options(parser, args)
    baseline = None
    if args.baseline:
        with open(args.baseline, newline="") as f:
            baseline = {r["game"]: r for r in csv.DictReader(f)}
    games = args.games or jsgym.bundled_games()
    names = p5_names()
    rows = []
    for g in games:
        r = profile_game(g, names, args)
        rows.append(r)
        log(f"{g:18s} {fmt_rate(r['steps_per_s']):>7s} steps/s {r['wall_us']:7.1f} us/step: "
            + ", ".join(f"{p} {r[p + '_us']:.1f}" for p in PARTS)
            + f"; {r['p5_calls']:.0f} p5 calls; other load "
            f"{r['measurement'].load_cell()} cores (own core / machine)")
    print(write_report(rows, args, args.out_dir, baseline))
    log(f"wrote {args.out_dir / 'profile.md'}, profile.csv")
    return 0


if __name__ == "__main__":
    sys.exit(main())
