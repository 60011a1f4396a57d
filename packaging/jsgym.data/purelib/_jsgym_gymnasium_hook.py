"""Registers jsgym's games with Gymnasium in any Python process that imports Gymnasium,
so that ``gymnasium.make("jsgym/Pong-v0")`` works where nothing imported jsgym first:
SB3's ``SubprocVecEnv`` workers, Ray actors, ``python -c``. Gymnasium 1.x loads no
plugins itself; jsgym-gymnasium.pth imports this module at start-up, and it imports
jsgym (whose import registers the games) right after Gymnasium's own import finishes.
Set ``JSGYM_NO_GYMNASIUM_HOOK=1`` to turn it off (then import jsgym, or write the id
as ``"jsgym:jsgym/Pong-v0"``)."""

import os
import sys


class _AfterGymnasium:
    """A meta-path finder for one name only: it wraps Gymnasium's loader so that jsgym
    is imported after Gymnasium is, then steps aside."""

    def find_spec(self, name, path=None, target=None):
        if name != "gymnasium":
            return None
        sys.meta_path.remove(self)
        import importlib.util

        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        exec_module = spec.loader.exec_module

        def exec_then_register(module):
            exec_module(module)
            try:
                import jsgym  # noqa: F401  (registers the bundled games)
            except Exception as exc:  # never break Gymnasium's own import
                import warnings

                warnings.warn(f"jsgym could not register its games with Gymnasium: {exc!r}")

        spec.loader.exec_module = exec_then_register
        return spec


if not os.environ.get("JSGYM_NO_GYMNASIUM_HOOK") and "gymnasium" not in sys.modules:
    sys.meta_path.insert(0, _AfterGymnasium())
