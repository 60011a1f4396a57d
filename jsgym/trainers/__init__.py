"""Single-file trainers (PPO, IMPALA) for jsgym games; see docs/training.md."""

#: What the trainers import beyond jsgym's own dependencies: the ``train`` extra.
TRAIN_EXTRA = ("torch", "tensorboard", "tqdm", "matplotlib")


def require_train_extra(what: str = "jsgym.trainers") -> None:
    """Raises ``ModuleNotFoundError`` naming the ``train`` extra when a module of it is
    missing (before a run folder or a vector env is created)."""
    import importlib.util

    missing = [m for m in TRAIN_EXTRA if importlib.util.find_spec(m) is None]
    if missing:
        raise ModuleNotFoundError(f"{what} requires the train extra ({', '.join(missing)} "
                                  "missing): pip install \"jsgym[train]\"", name=missing[0])
