"""Single-file trainers (PPO, IMPALA) for jsgym games; see docs/training.md."""
