"""CSS colour strings are parsed once and cached per env: the cache must give exactly
what parsing gives, across evictions and colorMode changes."""

from __future__ import annotations

import numpy as np

import jsgym

COLORS = [f"#{r:02x}{g:02x}{b:02x}" for r, g, b in
          ((i * 12 % 256, i * 37 % 256, 255 - i * 11 % 256) for i in range(24))]


def test_cached_colour_strings_match_parsing(game_factory):
    path = game_factory(f"""
        const C = {COLORS!r};
        let k = 0;
        function setup() {{ createCanvas(8, 8); }}
        function resetGame(seed) {{ k = 0; }}
        function draw() {{
          colorMode(k % 3 === 0 ? HSB : RGB, 100);   // must not change string colours
          noStroke(); fill(C[k % C.length]); rect(0, 0, 8, 8);
          fill('rgb(10%, 20%, 30%)'); rect(0, 0, 1, 1);
          k++;
        }}
        function getGameState() {{ return {{score: 0, lives: 1, gameState: 'playing'}}; }}
    """)
    envs = jsgym.make_vec(path, 1, obs_size=8)
    obs, _ = envs.reset(seed=0)
    seen = [obs[0, 4, 4].tolist()]
    for _ in range(2 * len(COLORS)):  # more strings than cache slots, twice round
        obs, *_ = envs.step(np.array([0]))
        seen.append(obs[0, 4, 4].tolist())
        assert obs[0, 0, 0].tolist() == [26, 51, 77]
    expected = [[int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)]
                for c in (COLORS * 3)[: len(seen)]]
    assert seen == expected
    envs.close()
