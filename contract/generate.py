"""Writes the C side of the env contract from contract/contract.json:

- the block between the ``contract:`` markers in runtime/include/jsgym.h: the integer
  constants of the C ABI (status codes, phases, game states, modes, receive flags,
  sizes), which cffi reads with the rest of that header;
- runtime/include/jsgym_contract.h: everything else C needs (the digest of
  contract.json, seeds, clock, limits, and the phase, state and key tables as X-macros).

    python contract/generate.py            # rewrite both
    python contract/generate.py --check    # exit 1 if either is stale (tests/test_contract.py)

Python reads contract.json itself (jsgym/contract.py); the browser pages get it from
jsgym/contract.py as contract.js.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ABI_HEADER = ROOT / "runtime" / "include" / "jsgym.h"
CONTRACT_HEADER = ROOT / "runtime" / "include" / "jsgym_contract.h"
BEGIN = "/* contract: begin (written by contract/generate.py from contract/contract.json; do not edit) */"
END = "/* contract: end */"


def load_contract():
    """jsgym/contract.py, loaded by path (importing the jsgym package needs its build)."""
    spec = importlib.util.spec_from_file_location("jsgym_contract", ROOT / "jsgym" / "contract.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def c_string(text: str) -> str:
    return json.dumps(text)  # a JSON string of ASCII text is a valid C string literal


def comment(text: str, indent: str = "") -> list[str]:
    """A C block comment wrapped at 88 columns."""
    words, lines, line = text.split(), [], ""
    for w in words:
        if len(indent) + 3 + len(line) + len(w) + 1 > 88 and line:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    if line:
        lines.append(line)
    if len(lines) == 1:
        return [f"{indent}/* {lines[0]} */"]
    return [f"{indent}/* {lines[0]}"] + [f"{indent} * {x}" for x in lines[1:-1]] + \
        [f"{indent} * {lines[-1]} */"]


def abi_block(c) -> str:
    """The integer #defines of jsgym.h (cffi keeps `#define NAME <decimal>` lines only)."""
    raw = c.RAW
    out = [BEGIN, f"#define JG_ABI_VERSION {c.ABI_VERSION}", ""]
    out += comment("Status codes (jg_error.kind).")
    for kind in raw["errors"]["kinds"]:
        name = "JG_OK" if kind["name"] == "OK" else f"JG_ERR_{kind['name']}"
        out.append(f"#define {name} {c.ERR[kind['name']]}")
    out += [""] + comment("Phases: where in the game a failure happened (jg_error.phase).")
    for p in c.PHASES:
        out.append(f"#define JG_PHASE_{p.name.upper()} {p.value}")
    out += [""] + comment("game_state values.")
    for i, s in enumerate(c.GAME_STATES):
        out.append(f"#define JG_{s.upper()} {i}")
    out += [""] + comment("Modes of jg_config (autoreset_mode: gymnasium.vector.AutoresetMode; "
                          "obs_fit: the rasterizer's JG_FIT_*).")
    for prefix, table in (("AUTORESET", c.AUTORESET), ("ON_ERROR", c.ON_ERROR), ("OBS_FIT", c.FIT)):
        for name, value in table.items():
            out.append(f"#define JG_{prefix}_{name.upper()} {value}")
    out += [""] + comment(raw["recv_flags"]["doc"])
    for name, value in c.RECV.items():
        out.append(f"#define JG_RECV_{name} {value}")
    out += [""] + comment("Keys held and keys tapped per action; jobs in flight at once.")
    out.append(f"#define JG_MAX_KEYS_PER_ACTION {c.MAX_KEYS_PER_ACTION}")
    out.append(f"#define JG_MAX_JOBS {c.MAX_JOBS}")
    out += [""] + comment("Pointer modes of an action (jg_action.pointer) and mouse button bits.")
    for name, value in c.POINTER_MODES.items():
        out.append(f"#define JG_POINTER_{name.upper()} {value}")
    for name, value in c.BUTTONS.items():
        out.append(f"#define JG_BUTTON_{name} {value}")
    out.append(END)
    return "\n".join(out)


def contract_header(c) -> str:
    raw = c.RAW
    out = ["/* The env contract for C: written by contract/generate.py from contract/contract.json",
           " * (edit that file, then run the generator; do not edit this one). The integer",
           " * constants of the C ABI are in jsgym.h's generated block. */",
           "#ifndef JSGYM_CONTRACT_H", "#define JSGYM_CONTRACT_H", "",
           "/* sha256 of contract/contract.json: jsgym/_core.py refuses a library built from",
           " * another contract. */",
           f"#define JG_CONTRACT_DIGEST {c_string(c.DIGEST)}", ""]
    out += comment(raw["seeds"]["doc"])
    out += [f"#define JG_SEED_RANDOM_MIX {raw['seeds']['random_mix']}u",
            f"#define JG_SEED_NOISE_MIX {raw['seeds']['noise_mix']}u"]
    for key in ("gamma", "mix1", "mix2"):
        out.append(f"#define JG_SPLITMIX64_{key.upper()} {raw['seeds']['splitmix64'][key]}ull")
    out += [""] + comment(raw["clock"]["doc"])
    out += [f"#define JG_CLOCK_FRAME_RATE {c.FRAME_RATE}",
            f"#define JG_CLOCK_FRAME_MS (1000.0 / {c.FRAME_RATE})",
            f"#define JG_CLOCK_EPOCH_MS {c.EPOCH_MS}.0", ""]
    out += comment("Keys down at once per env (more key-downs are ignored).")
    out += [f"#define JG_MAX_DOWN_KEYS {c.MAX_DOWN_KEYS}", ""]
    out += comment("Two left presses within this many ms of the virtual clock, at one "
                   "position, make a double click.")
    out += [f"#define JG_DOUBLE_CLICK_MS {c.DOUBLE_CLICK_MS}", ""]
    out += comment("X(bit, MouseEvent.button, mouseButton): each mouse button.")
    out.append("#define JG_BUTTON_EVENTS(X) \\")
    out += [f"    X({b}, {e[0]}, {c_string(e[1])}) \\" for b, e in sorted(c.BUTTON_EVENTS.items())]
    out.append("")
    out += comment(raw["limits"]["doc"])
    for name, spec in c.LIMITS.items():
        for bound in ("min", "max"):
            if bound in spec:
                out.append(f"#define JG_LIMIT_{name.upper()}_{bound.upper()} {spec[bound]}")
    out += [""] + comment("X(NAME, text): every phase and the words messages use for it.")
    out.append("#define JG_PHASES(X) \\")
    out += [f"    X({p.name.upper()}, {c_string(p.text)}) \\" for p in c.PHASES]
    out.append("")
    out += comment("X(name): the functions a game file must define.")
    out.append("#define JG_GAME_FUNCTIONS(X) \\")
    out += [f"    X({c_string(f)}) \\" for f in c.GAME_FUNCTIONS]
    out.append("")
    out += comment("X(spelling, state): accepted gameState strings (compared ignoring case).")
    out.append("#define JG_STATE_SPELLINGS(X) \\")
    out += [f"    X({c_string(s)}, JG_{c.GAME_STATES[v].upper()}) \\"
            for s, v in c.STATE_SPELLINGS.items()]
    out.append("")
    out += comment(raw["keys"]["doc"])
    out.append("#define JG_KEY_EVENTS(X) \\")
    out += [f"    X({code}, {c_string(e.key)}, {e.typed}, {c_string(e.code)}) \\"
            for code, e in sorted(c.KEY_EVENTS.items())]
    out.append("")
    out += [f"#define JG_KEY_UNKNOWN {c_string(c.key_event(-1).key)}", ""]
    out += comment("Messages of a broken game contract (every backend).")
    for name, text in c.MESSAGES.items():
        out.append(f"#define JG_MSG_{name.upper()} {c_string(text)}")
    out += ["", "#endif /* JSGYM_CONTRACT_H */", ""]
    return "\n".join(out)


def with_block(header: str, block: str) -> str:
    start, end = header.index(BEGIN), header.index(END) + len(END)
    return header[:start] + block + header[end:]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if a generated file is stale instead of writing it")
    args = parser.parse_args(argv)
    c = load_contract()
    wanted = {ABI_HEADER: with_block(ABI_HEADER.read_text(), abi_block(c)),
              CONTRACT_HEADER: contract_header(c)}
    stale = [p for p, text in wanted.items() if not p.exists() or p.read_text() != text]
    if args.check:
        for p in stale:
            print(f"{p.relative_to(ROOT)} is stale: run python contract/generate.py", file=sys.stderr)
        return 1 if stale else 0
    for p in stale:
        p.write_text(wanted[p])
        print(f"wrote {p.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
