"""Status codes and enums of the C ABI (runtime/include/jsgym.h), by name."""

OK = 0
ERR_ARGUMENT = 1
ERR_LOAD = 2
ERR_CONTRACT = 3
ERR_RUNTIME = 4
ERR_TIMEOUT = 5
ERR_MEMORY = 6
ERR_STATE = 7
ERR_SYSTEM = 8

# jg_pool_recv's flags
RECV_ALL_IN_ORDER = 1
RECV_EPISODE_DONE = 2
RECV_ENV_ERROR = 4
RECV_FINAL_OBS = 8

GAME_STATES = ("playing", "gameover", "won")

AUTORESET = {"next_step": 0, "same_step": 1, "disabled": 2}
ON_ERROR = {"raise": 0, "reset": 1}
FIT = {"stretch": 0, "letterbox": 1}
