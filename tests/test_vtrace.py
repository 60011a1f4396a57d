"""V-trace (jsgym/trainers/impala.py) against an independent reference written straight from
the IMPALA paper's definitions (Espeholt et al. 2018, eq. 1 and section 4.2), in NumPy
with explicit loops: no recursion shared with the implementation."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
from jsgym.trainers.impala import vtrace  # noqa: E402


def reference_vtrace(behavior_logp, target_logp, rewards, values, bootstrap, discounts,
                     rho_bar, c_bar):
    """v_s = V(x_s) + sum_{t=s}^{n-1} (prod_{i=s}^{t-1} gamma_i c_i) delta_t V, with
    delta_t V = rho_t (r_t + gamma_t V(x_{t+1}) - V(x_t)), rho_t = min(rho_bar, pi/mu),
    c_i = min(c_bar, pi/mu), V(x_n) = v_n = bootstrap; and the policy-gradient advantage
    rho_s (r_s + gamma_s v_{s+1} - V(x_s))."""
    T, B = rewards.shape
    vs = np.zeros((T, B))
    adv = np.zeros((T, B))
    for b in range(B):
        ratio = [np.exp(target_logp[t, b] - behavior_logp[t, b]) for t in range(T)]
        V = [values[t, b] for t in range(T)] + [bootstrap[b]]
        for s in range(T):
            total = V[s]
            for t in range(s, T):
                weight = 1.0
                for i in range(s, t):
                    weight *= discounts[i, b] * min(c_bar, ratio[i])
                rho_t = min(rho_bar, ratio[t])
                total += weight * rho_t * (rewards[t, b] + discounts[t, b] * V[t + 1] - V[t])
            vs[s, b] = total
        for s in range(T):
            v_next = vs[s + 1, b] if s + 1 < T else bootstrap[b]
            adv[s, b] = min(rho_bar, ratio[s]) * (rewards[s, b] + discounts[s, b] * v_next - V[s])
    return vs, adv


def random_inputs(rng, T=9, B=6):
    behavior = rng.normal(-1.5, 0.6, size=(T, B))
    target = behavior + rng.normal(0.0, 0.7, size=(T, B))  # ratios on both sides of 1
    rewards = rng.normal(size=(T, B))
    values = rng.normal(size=(T, B))
    bootstrap = rng.normal(size=B)
    discounts = 0.99 * (rng.random((T, B)) > 0.15)  # some episode ends inside the unroll
    return behavior, target, rewards, values, bootstrap, discounts


@pytest.mark.parametrize("rho_bar,c_bar", [(1.0, 1.0), (1.5, 0.8), (100.0, 100.0)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_vtrace_matches_paper_formula(seed, rho_bar, c_bar):
    inputs = random_inputs(np.random.default_rng(seed))
    want_vs, want_adv = reference_vtrace(*inputs, rho_bar, c_bar)
    got_vs, got_adv = vtrace(*(torch.from_numpy(x) for x in inputs), rho_bar, c_bar)
    # float64 throughout: differences are summation-order rounding only
    np.testing.assert_allclose(got_vs.numpy(), want_vs, atol=1e-6, rtol=0)
    np.testing.assert_allclose(got_adv.numpy(), want_adv, atol=1e-6, rtol=0)


def test_vtrace_on_policy_is_the_n_step_return():
    # with pi = mu every rho and c is 1: v_s is the discounted n-step return that
    # bootstraps from V(x_n), whatever the values in between
    rng = np.random.default_rng(3)
    behavior, _, rewards, values, bootstrap, discounts = random_inputs(rng)
    vs, _ = vtrace(*(torch.from_numpy(x) for x in (behavior, behavior, rewards, values,
                                                      bootstrap, discounts)))
    T = rewards.shape[0]
    want = np.zeros_like(rewards)
    ret = bootstrap.copy()
    for t in reversed(range(T)):
        ret = rewards[t] + discounts[t] * ret
        want[t] = ret
    np.testing.assert_allclose(vs.numpy(), want, atol=1e-9, rtol=0)


def test_vtrace_float32_close_to_float64():
    inputs = random_inputs(np.random.default_rng(4))
    want_vs, want_adv = reference_vtrace(*inputs, 1.0, 1.0)
    got_vs, got_adv = vtrace(*(torch.from_numpy(x).float() for x in inputs))
    # float32 rounding over a 9-step recursion of O(1) numbers stays below 1e-5
    np.testing.assert_allclose(got_vs.numpy(), want_vs, atol=1e-5, rtol=0)
    np.testing.assert_allclose(got_adv.numpy(), want_adv, atol=1e-5, rtol=0)
