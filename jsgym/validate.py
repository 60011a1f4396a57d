"""``jsgym validate``: is a game file valid, deterministic, learnable, and identical
in the browser?

Modelled on Gymnasium's ``env_checker``: each ``check_*`` function checks one thing,
returns what it measured (a dict) and raises :class:`CheckFailed` with a message that
says what was expected and what happened. :func:`validate` runs them in order and
collects a :class:`Report`; :func:`write_report` writes it as markdown with a montage
PNG of QuickJS vs browser frames.

The browser checks follow the verification ladder of docs/design.md: L2 (the p5 call
streams of both backends are identical over the first frames), L3 (score, lives,
gameState, reward and termination identical at every step over seeded episodes with
random actions; frames compared by PSNR).
"""

from __future__ import annotations

import dataclasses
import json
import math
import time
from typing import Callable

import numpy as np

import jsgym
from jsgym import contract, fidelity
from jsgym.errors import GameError

#: Random steps that must run without a JS error.
RUN_STEPS = 1000
#: Random steps within which most episodes must end.
EPISODE_LIMIT = 5000
#: Share of seeds whose random-play episode must end within EPISODE_LIMIT.
EPISODE_END_SHARE = 0.5
#: Steps within which the frame must change, and the score must change.
VISUAL_STEPS = 30
SCORE_STEPS = 500
#: Random steps per env over which different seeds must differ somewhere.
SEED_STEPS = 2000
#: Seeds the reset sweep starts an episode with (reset only: cheap).
RESET_SEEDS = 4096
#: Steps a game may go on playing with lives at 0 before the heuristics warn.
LIVES_ZERO_STEPS = 30
#: Distinct colours a frame must show (background, player, something else).
MIN_COLOURS = 3
#: Frame PSNR (dB) the browser check requires. The two rasterizers anti-alias some
#: edges differently, so frames are rarely bit-identical; with the same fonts, glyph
#: hinting and canvas-resolution text, the bundled games and the idiomatic corpus
#: measure 42-60 dB median. Below PSNR_MEDIAN_MIN the picture visibly differs (a
#: different font, seams, a misplaced HUD: the old bitmap text measured 32-40 dB);
#: below PSNR_MEDIAN_WARN the check passes with a warning naming the region that
#: differs most. A wrong colour or a missing or misplaced shape in one frame falls
#: below PSNR_WORST_MIN (typically < 12 dB).
PSNR_MEDIAN_MIN = 35.0
PSNR_MEDIAN_WARN = 42.0
PSNR_WORST_MIN = 20.0
#: PSNR reported for identical frames (the true value is infinite).
PSNR_IDENTICAL = 99.0


class CheckFailed(Exception):
    """A validation check failed; the message says what was expected and what
    happened."""


@dataclasses.dataclass
class CheckResult:
    """One row of the report."""

    name: str
    passed: bool
    message: str
    seconds: float
    details: dict = dataclasses.field(default_factory=dict)
    #: set when the check passed but something is worth a look
    warning: str = ""


@dataclasses.dataclass
class Report:
    game: str
    results: list[CheckResult]
    #: (label, quickjs frame, browser frame) pairs for the montage
    frames: list[tuple[str, np.ndarray, np.ndarray]] = dataclasses.field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(r.passed for r in self.results)

    def table(self) -> str:
        """The checks as a markdown table (:func:`jsgym.validate_report.table`)."""
        from jsgym.validate_report import table

        return table(self)


def psnr(a: np.ndarray, b: np.ndarray) -> float:
    """PSNR in dB of two uint8 frames (PSNR_IDENTICAL when they are equal)."""
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return PSNR_IDENTICAL if mse == 0 else min(PSNR_IDENTICAL, 10 * math.log10(255 ** 2 / mse))


def _random_actions(n_actions: int, steps: int, num_envs: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, n_actions, size=(steps, num_envs))


def _make(game, num_envs=1, **kw):
    envs = jsgym.make_vec(game, num_envs, num_threads=min(num_envs, 2), **kw)
    if envs.pointer_space is not None and envs.pointer_space[0] == "continuous" and \
            "pointer" not in kw:
        # random play needs a discrete table: a continuous pointer game is checked
        # through an 8 x 8 grid of clicks
        envs.close()
        envs = jsgym.make_vec(game, num_envs, num_threads=min(num_envs, 2), pointer="grid", **kw)
    return envs


# ------------------------------------------------------------------ QuickJS checks


def check_contract(game, **make_kw) -> dict:
    """setup, draw, resetGame and getGameState exist as functions (the file loads at
    all), and getGameState() returns a numeric score and lives and a valid gameState.

    Raises:
        CheckFailed: the file does not load, a function is missing, or a
            getGameState() field is malformed (the runtime's message is kept).
    """
    try:
        envs = _make(game, 1, **make_kw)
    except GameError as exc:
        raise CheckFailed(f"{type(exc).__name__}: {exc}") from None
    try:
        envs.reset(seed=0)
        missing = envs.call_js(
            "['setup','draw','resetGame','getGameState'].filter(n => typeof globalThis[n] !== "
            "'function')")
        if missing:
            raise CheckFailed(f"missing functions: {', '.join(missing)}")
        st = envs.call_js("getGameState()")
        problems = []
        if not isinstance(st, dict):
            raise CheckFailed(f"getGameState() returned {st!r}, expected an object")
        for key in ("score", "lives"):
            if not isinstance(st.get(key), (int, float)) or isinstance(st.get(key), bool):
                problems.append(f"{key} is {st.get(key)!r}, expected a number")
        if str(st.get("gameState")).lower() not in ("playing", "gameover", "won", "win"):
            problems.append(f"gameState is {st.get('gameState')!r}, expected 'playing', "
                            "'gameover' or 'won'")
        if problems:
            raise CheckFailed("getGameState(): " + "; ".join(problems))
        has_prng = envs.call_js("typeof mulberry32 === 'function'")
    except GameError as exc:
        raise CheckFailed(f"{type(exc).__name__}: {exc}") from None
    finally:
        envs.close()
    return {"state": st, "mulberry32": has_prng}


def check_runs(game, steps: int = RUN_STEPS, num_envs: int = 2, **make_kw) -> dict:
    """``steps`` random steps per env (autoreset on) raise no JS error.

    Raises:
        CheckFailed: naming the env, the step and the JS error.
    """
    envs = _make(game, num_envs, **make_kw)
    try:
        envs.reset(seed=0)
        acts = _random_actions(envs.single_action_space.n, steps, num_envs, 0)
        episodes = 0
        for t in range(steps):
            try:
                _, _, term, trunc, _ = envs.step(acts[t])
            except GameError as exc:
                raise CheckFailed(f"step {t}: {type(exc).__name__}: {exc}") from None
            episodes += int(np.sum(term | trunc))
    finally:
        envs.close()
    return {"steps": steps * num_envs, "episodes_ended": episodes}


def _rollout_until_done(envs, acts: np.ndarray, limit: int):
    """Steps every env with acts[t] until its episode ends (autoreset disabled);
    yields (t, ids, obs, rewards, term, trunc, infos) for the envs still running."""
    active = np.arange(envs.num_envs)
    for t in range(limit):
        if not len(active):
            return
        envs.send(acts[t][active], active)
        obs, rew, term, trunc, infos = envs.recv()
        ids = infos["env_id"]
        yield t, ids, obs, rew, term, trunc, infos
        active = ids[~(term | trunc)]


def check_episodes_end(game, num_seeds: int = 8, limit: int = EPISODE_LIMIT,
                       share: float = EPISODE_END_SHARE, **make_kw) -> dict:
    """Random play ends the episode (gameover or won) within ``limit`` steps for at
    least ``share`` of ``num_seeds`` seeds.

    Raises:
        CheckFailed: too few episodes ended (a game that never ends cannot teach).
    """
    envs = _make(game, num_seeds, autoreset_mode="disabled", max_episode_steps=None,
                 **make_kw)
    lengths = {}
    outcome = {}
    try:
        envs.reset(seed=list(range(num_seeds)))
        acts = _random_actions(envs.single_action_space.n, limit, num_seeds, 1)
        for t, ids, _, _, term, _, infos in _rollout_until_done(envs, acts, limit):
            for k in np.flatnonzero(term):
                lengths[int(ids[k])] = t + 1
                outcome[int(ids[k])] = ("playing", "gameover", "won")[int(infos["game_state"][k])]
    finally:
        envs.close()
    ended = len(lengths)
    details = {"ended": ended, "seeds": num_seeds,
               "median_length": float(np.median(list(lengths.values()))) if lengths else None,
               "won": sum(v == "won" for v in outcome.values())}
    if ended < share * num_seeds:
        raise CheckFailed(f"only {ended} of {num_seeds} random-play episodes ended within "
                          f"{limit} steps (expected at least {math.ceil(share * num_seeds)})")
    return details


def check_determinism(game, steps: int = 200, num_envs: int = 2, **make_kw) -> dict:
    """The same seed and actions give identical frames and states twice; different
    seeds give different first frames or states.

    Raises:
        CheckFailed: naming the first step and env that differ (same seeds), or
            saying that two different seeds gave identical trajectories.
    """
    def run(seeds):
        envs = _make(game, num_envs, **make_kw)
        try:
            obs, infos = envs.reset(seed=seeds)
            frames, states = [obs.copy()], [np.stack([infos["score"], infos["lives"]], 1)]
            acts = _random_actions(envs.single_action_space.n, steps, num_envs, 2)
            for t in range(steps):
                obs, _, _, _, infos = envs.step(acts[t])
                frames.append(obs.copy())
                states.append(np.stack([infos["score"], infos["lives"],
                                        infos["game_state"].astype(float)], 1)[:, :2])
            return np.stack(frames), np.stack(states)
        finally:
            envs.close()

    seeds = list(range(10, 10 + num_envs))
    f1, s1 = run(seeds)
    f2, s2 = run(seeds)
    for t in range(len(f1)):
        if not np.array_equal(f1[t], f2[t]) or not np.array_equal(s1[t], s2[t]):
            env = int(np.flatnonzero((f1[t] != f2[t]).reshape(num_envs, -1).any(1) |
                                     (s1[t] != s2[t]).any(1))[0])
            raise CheckFailed(f"two runs with the same seed and actions differ at step {t} "
                              f"(env {env}): the game uses unseeded randomness or real time")
    f3, s3 = run([s + 1000 for s in seeds])
    out = {"steps": steps, "envs": num_envs}
    if np.array_equal(f1, f3) and np.array_equal(s1, s3):
        out.update(check_seed_sensitivity(game, **make_kw))
    return out


def check_seed_sensitivity(game, steps: int = SEED_STEPS, num_envs: int = 4, **make_kw) -> dict:
    """Whether different seeds ever give different frames or states, over longer
    random rollouts (autoreset on, so later episodes start from other level seeds too).
    A seed may only change parts of a level the random player never reaches, so
    identical rollouts are a warning with the evidence, not a failure.

    Returns:
        ``{"seed_steps", "seed_episodes", "seed_differs_at"}`` and ``"warning"`` when
        nothing differed.
    """
    def run(seeds):
        envs = _make(game, num_envs, **make_kw)
        try:
            obs, _ = envs.reset(seed=seeds)
            acts = _random_actions(envs.single_action_space.n, steps, num_envs, 8)
            yield obs
            for t in range(steps):
                obs, _, term, trunc, infos = envs.step(acts[t])
                yield obs, infos["score"].copy(), infos["lives"].copy(), int(np.sum(term | trunc))
        finally:
            envs.close()

    a, b = run(list(range(10, 10 + num_envs))), run(list(range(1010, 1010 + num_envs)))
    episodes = 0
    if not np.array_equal(next(a), next(b)):
        return {"seed_steps": 0, "seed_episodes": 0, "seed_differs_at": 0}
    for t, (x, y) in enumerate(zip(a, b)):
        episodes += x[3]
        if not (np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1]) and
                np.array_equal(x[2], y[2])):
            a.close(), b.close()
            return {"seed_steps": t + 1, "seed_episodes": episodes, "seed_differs_at": t + 1}
    return {"seed_steps": steps, "seed_episodes": episodes, "seed_differs_at": None,
            "warning": (f"seeds 10..{9 + num_envs} and 1010..{1009 + num_envs} gave identical "
                        f"frames, scores and lives over {steps} random steps x {num_envs} envs "
                        f"({episodes} episodes ended): resetGame(seed) may ignore its seed, or "
                        "the seed only changes what random play never reaches")}


def check_reset_sweep(game, seeds: int = RESET_SEEDS, num_envs: int = 16, **make_kw) -> dict:
    """``resetGame(seed)`` (and the first frame) for seeds ``0..seeds-1``, reset only:
    finds seed-dependent hangs and errors that short rollouts miss, and names the seed.

    Raises:
        CheckFailed: naming the first failing seed and the error.
    """
    envs = _make(game, num_envs, autoreset_mode="disabled", **make_kw)
    t0 = time.perf_counter()
    try:
        seeds = -(-seeds // num_envs) * num_envs  # whole resets of every env
        for start in range(0, seeds, num_envs):
            chunk = list(range(start, start + num_envs))
            try:
                envs.reset(seed=chunk)
            except GameError as exc:
                seed = chunk[exc.env_index] if exc.env_index is not None and \
                    exc.env_index < len(chunk) else None
                raise CheckFailed(f"seed {seed}: {type(exc).__name__}: {exc}") from None
    finally:
        envs.close()
    return {"seeds": seeds, "seconds": time.perf_counter() - t0}


def check_visuals(game, steps: int = VISUAL_STEPS, num_envs: int = 4, **make_kw) -> dict:
    """Frames are not constant, show at least MIN_COLOURS distinct colours, and change
    within ``steps`` steps of the episode start.

    Raises:
        CheckFailed: a blank or single-colour frame, or a frozen picture.
    """
    envs = _make(game, num_envs, **make_kw)
    try:
        obs, _ = envs.reset(seed=list(range(20, 20 + num_envs)))
        first = obs.copy()
        acts = _random_actions(envs.single_action_space.n, steps, num_envs, 3)
        changed = np.zeros(num_envs, dtype=bool)
        colours = [len(np.unique(first[i].reshape(-1, 3), axis=0)) for i in range(num_envs)]
        for t in range(steps):
            obs, *_ = envs.step(acts[t])
            changed |= (obs != first).reshape(num_envs, -1).any(1)
            for i in range(num_envs):
                colours[i] = max(colours[i], len(np.unique(obs[i].reshape(-1, 3), axis=0)))
    finally:
        envs.close()
    if all(first[i].min() == first[i].max() for i in range(num_envs)):
        raise CheckFailed("the first frame is a single constant value (nothing drawn?)")
    if max(colours) < MIN_COLOURS:
        raise CheckFailed(f"frames show at most {max(colours)} distinct colours "
                          f"(expected at least {MIN_COLOURS})")
    if not changed.any():
        raise CheckFailed(f"the frame did not change within {steps} random steps")
    return {"colours_max": int(max(colours)), "envs_changed": int(changed.sum())}


def check_reward(game, steps: int = SCORE_STEPS, num_envs: int = 8, **make_kw) -> dict:
    """reward equals the score delta at every step, and the score changes under random
    play within ``steps`` steps (in at least one of ``num_envs`` seeds).

    Raises:
        CheckFailed: a reward that is not the score delta, or a score that never moves.
    """
    envs = _make(game, num_envs, autoreset_mode="disabled", max_episode_steps=None, **make_kw)
    moved = np.zeros(num_envs, dtype=bool)
    try:
        _, infos = envs.reset(seed=list(range(30, 30 + num_envs)))
        score = infos["score"].copy()
        acts = _random_actions(envs.single_action_space.n, steps, num_envs, 4)
        for t, ids, _, rew, _, _, infos in _rollout_until_done(envs, acts, steps):
            delta = infos["score"] - score[ids]
            bad = np.flatnonzero(rew != delta)
            if len(bad):
                k = bad[0]
                raise CheckFailed(f"step {t} env {ids[k]}: reward {rew[k]} != score delta "
                                  f"{delta[k]}")
            moved[ids] |= delta != 0
            score[ids] = infos["score"]
    finally:
        envs.close()
    if not moved.any():
        raise CheckFailed(f"the score never changed within {steps} random steps on "
                          f"{num_envs} seeds (nothing to learn from)")
    return {"envs_scoring": int(moved.sum()), "envs": num_envs}


def check_cost(game, steps: int = 300, resets: int = 40, **make_kw) -> dict:
    """Per-step cost in the QuickJS backend: game logic and p5 calls (js), rasterizing,
    copying, from ``make_vec(..., profile=True)``; and the cost of a reset (level
    generation plus the first frame) over ``resets`` level seeds, as wall time and in
    step-equivalents (median reset time / median step time, both timed from Python on
    one env, so both include the same call overhead). Informational; fails only if the
    game fails."""
    envs = _make(game, 1, profile=True, **make_kw)
    try:
        envs.reset(seed=0)
        acts = _random_actions(envs.single_action_space.n, steps, 1, 5)
        step_s = []
        for t in range(steps):
            t0 = time.perf_counter()
            envs.step(acts[t])
            step_s.append(time.perf_counter() - t0)
        p = envs.profile(0)
        reset_s = []
        for k in range(resets):
            t0 = time.perf_counter()
            envs.reset(seed=1000 + k)
            reset_s.append(time.perf_counter() - t0)
    finally:
        envs.close()
    frames = max(1, p["frames"])
    step_med, reset_med = float(np.median(step_s)), float(np.median(reset_s))
    return {
        "js_us": p["js_ns"] / frames / 1e3, "raster_us": p["raster_ns"] / frames / 1e3,
        "copy_us": p["copy_ns"] / frames / 1e3, "p5_calls": p["p5_calls"] / frames,
        "frames": p["frames"], "step_us": step_med * 1e6, "reset_us": reset_med * 1e6,
        "reset_worst_us": float(np.max(reset_s)) * 1e6,
        "reset_steps": reset_med / step_med if step_med > 0 else float("nan"),
    }


# Names JavaScript itself defines in every global scope: a game may shadow these
# without hiding anything of p5's (check_heuristics compares the rest).
_ECMASCRIPT_GLOBALS = frozenset("""
Object Function Array Number parseFloat parseInt Infinity NaN undefined Boolean String Symbol
Date Promise RegExp Error AggregateError EvalError RangeError ReferenceError SyntaxError
TypeError URIError InternalError globalThis JSON Math Intl ArrayBuffer SharedArrayBuffer
Uint8Array Int8Array Uint16Array Int16Array Uint32Array Int32Array Float16Array Float32Array
Float64Array Uint8ClampedArray BigUint64Array BigInt64Array DataView Map BigInt Set WeakMap
WeakSet Proxy Reflect FinalizationRegistry WeakRef Iterator Atomics decodeURI
decodeURIComponent encodeURI encodeURIComponent escape unescape eval isFinite isNaN
performance GAME_OPTIONS print console""".split())

# What a game defines for p5 and jsgym to call (eval_js's stand-in game defines the
# contract functions too): never p5's own.
_GAME_DEFINES = frozenset(contract.GAME_FUNCTIONS) | {"preload", "mulberry32"}

# For each p5 name of a fresh env, a fingerprint: its type, and for a function its
# source text (a native one says so), for anything else its value if it is a constant.
_FINGERPRINTS = r"""
(function (names) {
  var out = {};
  names.forEach(function (n) {
    var v, t;
    try { v = globalThis[n]; t = typeof v; } catch (e) { out[n] = 'throws'; return; }
    out[n] = t === 'function' ? 'f:' + String(v).slice(0, 300)
      : t === 'object' || t === 'undefined' ? t : t + ':' + String(v);
  });
  return out;
})
"""


def _p5_fingerprints() -> dict:
    from jsgym._core import eval_js

    names = [n for n in eval_js("Object.getOwnPropertyNames(globalThis)")
             if n not in _ECMASCRIPT_GLOBALS and n not in _GAME_DEFINES and not n.startswith("__")]
    return eval_js(f"({_FINGERPRINTS})({json.dumps(names)})")


def check_shadowing(game, **make_kw) -> dict:
    """Top-level ``const``/``let``/``class`` declarations of the game that hide a p5
    name (``const TOP = 40`` makes ``textAlign(CENTER, TOP)`` align to 40), and
    ``var``/``function`` declarations that replace a p5 function or constant.
    Heuristic: reported as a warning with the names, never a failure."""
    fresh = _p5_fingerprints()
    envs = _make(game, 1, **make_kw)
    try:
        envs.reset(seed=0)
        found = envs.call_js(r"""
(function (fresh) {
  var hidden = [], replaced = [];
  var fp = """ + _FINGERPRINTS + r""";
  var now = fp(Object.keys(fresh));
  Object.keys(fresh).forEach(function (n) {
    try { (0, eval)('var ' + n); } catch (e) {
      if (e instanceof SyntaxError) { hidden.push(n); return; }
    }
    var f = fresh[n], g = now[n];
    // functions the game replaced, and constants (upper case) it reassigned
    if (f !== g && (f.slice(0, 2) === 'f:' || /^[A-Z][A-Z0-9_]*$/.test(n))) replaced.push(n);
  });
  return {hidden: hidden, replaced: replaced};
})(""" + json.dumps(fresh) + ")")
    finally:
        envs.close()
    out = {"hidden": found["hidden"], "replaced": found["replaced"]}
    parts = []
    functions = [n for n in out["hidden"] if fresh.get(n, "").startswith("f:")]
    values = [n for n in out["hidden"] if n not in functions]
    if values:
        parts.append("top-level const/let/class declarations hide p5's "
                     + ", ".join(values) + " (harmless unless the game passes "
                     + ("that name" if len(values) == 1 else "those names")
                     + " to a p5 call meaning p5's constant, as textAlign(CENTER, TOP) "
                     "does: the call then gets the game's value)")
    if functions:
        parts.append("top-level const/let/class declarations hide p5's function"
                     + ("s " if len(functions) > 1 else " ")
                     + ", ".join(f"{n}()" for n in functions)
                     + " (harmless unless the game means to call p5's: the name is "
                     "the game's value)")
    if out["replaced"]:
        parts.append("the game replaces p5's " + ", ".join(out["replaced"]))
    if parts:
        out["warning"] = "; ".join(parts)
    return out


def check_play_heuristics(game, num_seeds: int = 8, limit: int = EPISODE_LIMIT,
                          lives_zero_steps: int = LIVES_ZERO_STEPS, **make_kw) -> dict:
    """Random-play episodes (autoreset off) looked at for what usually is a bug, as
    warnings with the evidence: lives fell to 0 while the game kept playing for more
    than ``lives_zero_steps`` steps (the last life never ends the episode); random
    play won every episode (the game cannot be lost, or is won by doing nothing)."""
    envs = _make(game, num_seeds, autoreset_mode="disabled", max_episode_steps=None,
                 **make_kw)
    zero_since = np.full(num_seeds, -1)
    had_lives = np.zeros(num_seeds, dtype=bool)
    evidence = None
    won = ended = 0
    try:
        _, infos = envs.reset(seed=list(range(40, 40 + num_seeds)))
        had_lives |= infos["lives"] > 0
        acts = _random_actions(envs.single_action_space.n, limit, num_seeds, 9)
        for t, ids, _, _, term, _, infos in _rollout_until_done(envs, acts, limit):
            lives, state = infos["lives"], infos["game_state"]
            for k, i in enumerate(ids):
                if term[k]:
                    ended += 1
                    won += int(state[k] == 2)
                if lives[k] > 0:
                    had_lives[i] = True
                    zero_since[i] = -1
                elif had_lives[i] and zero_since[i] < 0:
                    zero_since[i] = t
                if (evidence is None and zero_since[i] >= 0 and
                        (t - zero_since[i] >= lives_zero_steps or term[k] and state[k] == 2)):
                    evidence = (int(i), 40 + int(i), int(zero_since[i]), t,
                                ("playing", "gameover", "won")[int(state[k])])
    finally:
        envs.close()
    out = {"episodes": ended, "won": won}
    warnings = []
    if evidence is not None:
        env, seed, since, t, state = evidence
        warnings.append(f"seed {seed}: lives reached 0 at step {since + 1} but the game kept "
                        f"playing (still '{state}' at step {t + 1}): the last life does not "
                        "end the episode")
    if ended == num_seeds and won == num_seeds:
        warnings.append(f"random play won all {num_seeds} episodes: the game may not be "
                        "losable (or is won by waiting)")
    if warnings:
        out["warning"] = "; ".join(warnings)
    return out


# ------------------------------------------------------------------ browser checks


def capture_source() -> str:
    """jsgym/web/capture.js, the L2 call-stream recorder both backends run."""
    from jsgym.browser import web_dir

    return (web_dir() / "capture.js").read_text(encoding="utf-8")


def capture_calls(envs, steps: int, *, seed: int = 0, action_seed: int = 6) -> list[list]:
    """Runs ``steps`` random steps of env 0 with the L2 recorder installed; returns the
    p5 calls of each step (the reset frame first)."""
    code = capture_source()
    envs.call_js(code, 0)
    envs.call_js("__jsgymCapture.install()", 0)
    out = []
    envs.reset(seed=[seed + i for i in range(envs.num_envs)])
    out.append(envs.call_js("__jsgymCapture.take()", 0))
    acts = _random_actions(envs.single_action_space.n, steps, envs.num_envs, action_seed)
    for t in range(steps):
        envs.step(acts[t])
        out.append(envs.call_js("__jsgymCapture.take()", 0))
    return out


def check_l2_calls(game, frames: int = 60, seed: int = 0, **make_kw) -> dict:
    """L2: the p5 call streams (name, evaluated arguments, style of each shape) of both
    backends are identical over the first ``frames`` frames (same seed and actions).

    Raises:
        CheckFailed: naming the first step and call that differ, with both calls.
    """
    q = _make(game, 1, **make_kw)
    b = jsgym.make_vec(game, 1, backend="browser", **make_kw)
    try:
        cq = capture_calls(q, frames, seed=seed)
        cb = capture_calls(b, frames, seed=seed)
    finally:
        q.close()
        b.close()
    total = 0
    for t, (lq, lb) in enumerate(zip(cq, cb)):
        for k in range(max(len(lq), len(lb))):
            x = lq[k] if k < len(lq) else None
            y = lb[k] if k < len(lb) else None
            if x != y:
                raise CheckFailed(f"step {t}, call {k}: QuickJS {x} vs browser {y}")
        total += len(lq)
    return {"frames": frames, "calls": total}


def check_l3_rollouts(game, episodes: int = 3, max_steps: int = 1000,
                      psnr_median_min: float = PSNR_MEDIAN_MIN,
                      psnr_worst_min: float = PSNR_WORST_MIN, **make_kw) -> dict:
    """L3: over ``episodes`` seeded episodes with random actions (each at most
    ``max_steps`` steps), score, lives, gameState, reward and termination are
    identical at every step in both backends, and the frames agree within the stated
    PSNR (median and worst step).

    Returns details including ``psnr`` (every step's value), ``frames`` (labelled
    (quickjs, browser) pairs for the montage, the worst frame last), ``divergence``
    (None, or the first divergent step with both values), ``region`` (the region that
    differs most over all frames, with the calls drawn there in the frame where it
    differs most) and ``worst_frame_region`` (where the worst frame differs most, with
    that frame's calls drawn there); see :func:`_regions`.

    Raises:
        CheckFailed: the first divergent step with both values, or a PSNR below the
            thresholds (naming the step).
    """
    kw = dict(autoreset_mode="disabled", max_episode_steps=max_steps, **make_kw)
    q = _make(game, episodes, **kw)
    b = jsgym.make_vec(game, episodes, backend="browser",
                       **{k: v for k, v in kw.items() if k != "supersample"})
    seeds = list(range(100, 100 + episodes))
    heat = fidelity.HeatMap()
    psnrs: list[tuple[float, int, int]] = []
    frames: list[tuple[str, np.ndarray, np.ndarray]] = []
    divergence = None
    steps_compared = 0
    # the lowest PSNR so far: its index in psnrs and both frames (the first of equal values)
    worst_pair: list = [None, None, None]

    def compare(fq, fb, i, t):
        p = psnr(fq, fb)
        if worst_pair[0] is None or p < psnrs[worst_pair[0]][0]:
            worst_pair[:] = [len(psnrs), fq.copy(), fb.copy()]
        psnrs.append((p, i, t))
        heat.add(fq, fb, (i, t))

    try:
        oq, iq = q.reset(seed=seeds)
        ob, ib = b.reset(seed=seeds)
        for i in range(episodes):
            compare(oq[i], ob[i], i, 0)
        frames.append((f"seed {seeds[0]} step 0", oq[0].copy(), ob[0].copy()))
        acts = _random_actions(q.single_action_space.n, max_steps, episodes, 7)
        active = np.arange(episodes)
        snap = {max_steps // 8, max_steps // 4, max_steps // 2}
        for t in range(max_steps):
            if not len(active):
                break
            q.send(acts[t][active], active)
            b.send(acts[t][active], active)
            rq = q.recv()
            rb = b.recv()
            ids = rq[4]["env_id"]
            steps_compared += len(ids)
            for k, i in enumerate(ids):
                vq = _step_values(rq, k)
                vb = _step_values(rb, k)
                compare(rq[0][k], rb[0][k], int(i), t + 1)
                if vq != vb and divergence is None:
                    divergence = {"episode": int(i), "seed": seeds[i], "step": t + 1,
                                  "quickjs": vq, "browser": vb}
                    frames.append((f"first divergence: seed {seeds[i]} step {t + 1}",
                                   rq[0][k].copy(), rb[0][k].copy()))
                if i == 0 and (t + 1) in snap:
                    frames.append((f"seed {seeds[0]} step {t + 1}", rq[0][k].copy(),
                                   rb[0][k].copy()))
            done = rq[2] | rq[3]
            active = ids[~done]
            if divergence is not None:
                break
    finally:
        q.close()
        b.close()
    values = np.array([p for p, _, _ in psnrs])
    worst = worst_pair[0]
    worst_at = {"episode": psnrs[worst][1], "seed": seeds[psnrs[worst][1]], "step": psnrs[worst][2]}
    frames.append((f"worst frame: seed {worst_at['seed']} step {worst_at['step']}",
                   worst_pair[1], worst_pair[2]))
    details = {
        "episodes": episodes, "steps": steps_compared, "psnr": values.tolist(),
        "psnr_median": float(np.median(values)), "psnr_worst": float(values[worst]),
        "psnr_worst_at": worst_at, "divergence": divergence, "frames": frames, "heat": heat,
    }
    summed = heat.worst_region()
    i, t = heat.peak_frame(summed)
    details["region"], details["worst_frame_region"] = _regions(
        game, [(summed, {"episode": i, "seed": seeds[i], "step": t}),
               (fidelity.frame_region(worst_pair[1], worst_pair[2]), worst_at)], acts, **make_kw)
    if divergence is not None:
        d = divergence
        raise _failed_with(details, f"L3: seed {d['seed']} step {d['step']}: QuickJS "
                           f"{_fmt(d['quickjs'])} vs browser {_fmt(d['browser'])}")
    if details["psnr_median"] < psnr_median_min or details["psnr_worst"] < psnr_worst_min:
        w = details["psnr_worst_at"]
        raise _failed_with(details, f"frame PSNR median {details['psnr_median']:.1f} dB, worst "
                           f"{details['psnr_worst']:.1f} dB at seed {w['seed']} step {w['step']}"
                           f" (required: median >= {psnr_median_min}, worst >= {psnr_worst_min})")
    return details


def _regions(game, wanted: list[tuple[tuple, dict]], acts: np.ndarray, **make_kw) -> list[dict]:
    """For each (observation region, frame ``{"episode", "seed", "step"}``): the region
    as observation pixels and canvas units, the frame, and the p5 calls of that frame
    that drew there (the frame replayed in QuickJS with the L2 recorder)."""
    out = [{"obs": region, "canvas": None, "calls": [], "frame": frame} for region, frame in wanted]
    try:
        envs = _make(game, 1, **make_kw)
    except GameError:
        return out
    try:
        canvas = tuple(envs.call_js("[width, height]", 0))
        obs_hw = envs.single_observation_space.shape[:2]
        for r in out:
            r["canvas"] = fidelity.obs_to_canvas(r["obs"], obs_hw, canvas,
                                                 make_kw.get("fit", "stretch"))
        envs.call_js(capture_source(), 0)
        envs.call_js("__jsgymCapture.install()", 0)
        logs: dict = {}
        for r in out:
            f = r["frame"]
            key = (f["episode"], f["step"])
            if key not in logs:
                envs.reset(seed=f["seed"])
                calls = envs.call_js("__jsgymCapture.take()", 0)
                for t in range(f["step"]):
                    envs.step(acts[t][f["episode"]:f["episode"] + 1])
                    calls = envs.call_js("__jsgymCapture.take()", 0)
                logs[key] = calls
            r["calls"] = [c.describe() for c in fidelity.calls_in(logs[key], r["canvas"], canvas)]
    except GameError:
        pass
    finally:
        envs.close()
    return out


def _fmt_region(r: dict) -> str:
    x0, y0, x1, y1 = r["obs"]
    text = f"observation pixels x {x0}-{x1}, y {y0}-{y1}"
    if r.get("canvas"):
        cx0, cy0, cx1, cy1 = r["canvas"]
        text += f" (canvas x {cx0:.0f}-{cx1:.0f}, y {cy0:.0f}-{cy1:.0f})"
    return text


_STEP_FIELDS = ("score", "lives", "gameState", "reward", "terminated", "truncated")


def _step_values(result, k: int) -> dict:
    obs, rew, term, trunc, infos = result
    return dict(zip(_STEP_FIELDS, (float(infos["score"][k]), float(infos["lives"][k]),
                                   int(infos["game_state"][k]), float(rew[k]), bool(term[k]),
                                   bool(trunc[k]))))


def _fmt(values: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in values.items())


def _failed_with(details: dict, message: str) -> CheckFailed:
    exc = CheckFailed(message)
    exc.details = details
    return exc


# ------------------------------------------------------------------ runner


def validate(game, *, browser: bool = False, episodes: int = 3, max_steps: int = 1000,
             l2_frames: int = 60, progress: Callable[[str], None] | None = None,
             psnr_median_min: float = PSNR_MEDIAN_MIN, psnr_median_warn: float = PSNR_MEDIAN_WARN,
             psnr_worst_min: float = PSNR_WORST_MIN, reset_seeds: int = RESET_SEEDS,
             **make_kw) -> Report:
    """Runs every check on ``game`` and returns the :class:`Report` (never raises for a
    failed check). ``make_kw`` reaches every ``make_vec`` (e.g. ``obs_size``,
    ``supersample``: the QuickJS side only). L3 fails below ``psnr_median_min`` /
    ``psnr_worst_min`` and warns below ``psnr_median_warn``. ``reset_seeds`` seeds go
    through the reset sweep. A check whose details hold a ``"warning"`` passes with it
    (the heuristics, a seed that changed nothing random play saw)."""
    from jsgym.games import resolve

    name, _ = resolve(game)
    report = Report(name, [])
    checks: list[tuple[str, Callable[[], dict], Callable[[dict], str]]] = [
        ("contract", lambda: check_contract(game, **make_kw),
         lambda d: "setup/draw/resetGame/getGameState present; state " +
         _fmt_state(d["state"]) + ("" if d["mulberry32"] else "; note: no mulberry32()")),
        ("runs", lambda: check_runs(game, **make_kw),
         lambda d: f"{d['steps']} random steps, no JS error ({d['episodes_ended']} episodes ended)"),
        ("episodes end", lambda: check_episodes_end(game, **make_kw),
         lambda d: f"{d['ended']}/{d['seeds']} seeds ended within {EPISODE_LIMIT} steps "
         f"(median length {d['median_length']}, won {d['won']})"),
        ("determinism", lambda: check_determinism(game, **make_kw),
         lambda d: f"same seed identical over {d['steps']} steps x {d['envs']} envs; " +
         ("other seeds differ" if d.get("seed_differs_at", 0) is not None else
          f"other seeds identical over {d['seed_steps']} steps")),
        ("visuals", lambda: check_visuals(game, **make_kw),
         lambda d: f"up to {d['colours_max']} colours; frame changed in {d['envs_changed']} "
         f"of 4 envs within {VISUAL_STEPS} steps"),
        ("reward", lambda: check_reward(game, **make_kw),
         lambda d: f"reward == score delta; score moved in {d['envs_scoring']}/{d['envs']} seeds within "
         f"{SCORE_STEPS} steps"),
        ("reset sweep", lambda: check_reset_sweep(game, seeds=reset_seeds, **make_kw),
         lambda d: f"resetGame() ran for seeds 0..{d['seeds'] - 1} ({d['seconds']:.1f} s)"),
        ("heuristics", lambda: _merge(check_shadowing(game, **make_kw),
                                      check_play_heuristics(game, **make_kw)),
         lambda d: f"p5 names hidden: {', '.join(d['hidden']) or 'none'}; replaced: "
         f"{', '.join(d['replaced']) or 'none'}; random play won {d['won']}/{d['episodes']} "
         "episodes"),
    ]
    if browser:
        checks += [
            ("L2 call stream", lambda: check_l2_calls(game, frames=l2_frames, **make_kw),
             lambda d: f"identical over {d['frames']} frames ({d['calls']} p5 calls)"),
            ("L3 rollouts", lambda: check_l3_rollouts(game, episodes=episodes,
                                                      max_steps=max_steps,
                                                      psnr_median_min=psnr_median_min,
                                                      psnr_worst_min=psnr_worst_min, **make_kw),
             _fmt_l3),
        ]
    checks.append(("per-step cost", lambda: check_cost(game, **make_kw),
                   lambda d: f"QuickJS per frame: js (logic + p5 calls) {d['js_us']:.0f} us, "
                   f"raster {d['raster_us']:.0f} us, copy {d['copy_us']:.1f} us, "
                   f"{d['p5_calls']:.0f} p5 calls; reset {d['reset_us']:.0f} us "
                   f"(worst {d['reset_worst_us']:.0f}) = {d['reset_steps']:.1f} steps"))
    for label, run, describe in checks:
        if progress:
            progress(label)
        t0 = time.perf_counter()
        try:
            details = run()
            result = CheckResult(label, True, describe(details), 0.0, details)
        except CheckFailed as exc:
            details = getattr(exc, "details", {})
            text = str(exc)
            if label == "L3 rollouts" and details:
                text += f" [{_fmt_l3(details)}]"
            result = CheckResult(label, False, text, 0.0, details)
        except GameError as exc:
            result = CheckResult(label, False, f"{type(exc).__name__}: {exc}", 0.0)
        result.seconds = time.perf_counter() - t0
        d = result.details
        if result.passed and d.get("warning"):
            result.warning = d.pop("warning")
        if label == "L3 rollouts" and result.passed and d.get("psnr_median", 99) < psnr_median_warn:
            result.warning = (f"PSNR median {d['psnr_median']:.1f} dB < {psnr_median_warn} dB; "
                              f"differs most at {_fmt_region(d['region'])}")
        report.results.append(result)
        if label == "L3 rollouts":
            report.frames = result.details.pop("frames", [])
        if label == "contract" and not result.passed:
            break  # nothing else can run
    return report


def _merge(*dicts: dict) -> dict:
    out: dict = {}
    warnings = [d.pop("warning") for d in dicts if d.get("warning")]
    for d in dicts:
        out.update(d)
    if warnings:
        out["warning"] = "; ".join(warnings)
    return out


def _fmt_state(state: dict) -> str:
    return "{" + ", ".join(f"{k}: {state[k]!r}" for k in ("score", "lives", "gameState")
                           if k in state) + "}"


def _fmt_l3(d: dict) -> str:
    w = d["psnr_worst_at"]
    text = (f"{d['episodes']} episodes, {d['steps']} steps: states identical"
            if d["divergence"] is None else f"{d['steps']} steps compared")
    return (f"{text}; PSNR median {d['psnr_median']:.1f} dB, worst {d['psnr_worst']:.1f} dB "
            f"(seed {w['seed']} step {w['step']})")
