"""ginodi2010 §2.2–2.3: the worst-case Gaussian adversary and the smooth loss (Prop. 1, Thms. 2.1, 3.1–3.3).

These are mathematical statements. The chapter's page checks them numerically with the library's
functions; the ledger repeats those checks here (milliseconds; there are no solver runs and no
records), each as a :func:`~robustpapers.reproduce.ledger.target` on the largest error with the
tolerance stated in ``rule``:

* Prop. 1 and Thm. 2.1: the closed-form loss (2.16) equals the expected hinge under the cloud
  N(x, σ² ww'/‖w‖²) (quadrature), and random covariances with the same trace never give more;
* Thm. 3.1: f is smooth, strictly convex (f'' = φ > 0) and an upper approximation of the hinge,
  with f − [z]_+ at most φ(0) and vanishing at both ends;
* Thm. 3.2: the loss is strictly convex in w (second differences along random lines are positive);
* Thm. 3.3: the loss lies above the hinge and tends to it as σ → 0 (largest gap σ‖w‖φ(0)).

:func:`checks` also returns Lemma 2's derivative (2.13), ∂Q/∂σ² = φ(u/σ)/(2σ) > 0, by central differences
(``lemma2``, shown on the page, not a claim of its own); :func:`draw` gives Figs. 2.2 and 2.3.
"""
from __future__ import annotations

import numpy as np

from ..ledger import target
from ._common import PAPER, make

LABEL = "ginodi2010 §2.2–2.3"
ALGORITHM = "robust_hinge_loss, smooth_hinge (closed forms) against scipy.integrate.quad and finite differences"
NOTE = "A numerical check computed when the ledger is built (no records): deterministic, seed 0."


def records(root=None, scale="paper", seed=0):
    """Nothing is cached for these checks."""
    return None


def _expected_hinge(u, sd):
    from scipy.integrate import quad

    return quad(lambda n: (u + sd * n) * np.exp(-n * n / 2) / np.sqrt(2 * np.pi), -u / sd, np.inf,
                epsabs=1e-13, epsrel=1e-12)[0]


def checks(seed=0):
    """The largest errors of the four checks (a dict)."""
    from robustpapers.ginodi2010 import robust_hinge_loss, smooth_hinge

    rng = np.random.default_rng(seed)
    X, y = rng.normal(size=(6, 3)), np.array([1.0, -1.0, 1.0, -1.0, 1.0, -1.0])
    w, s = rng.normal(size=3), 0.7
    loss = robust_hinge_loss(w, X, y, s)
    u = 1 - y * (X @ w)
    quad_err = max(abs(loss[m] - _expected_hinge(u[m], s * np.linalg.norm(w))) for m in range(6))
    excess = -np.inf
    for _ in range(10):
        A = rng.normal(size=(3, 3))
        S = A @ A.T
        S *= s**2 / np.trace(S)
        excess = max(excess, max(_expected_hinge(u[m], np.sqrt(w @ S @ w)) - loss[m] for m in range(6)))
    z = np.linspace(-4, 4, 801)
    h = 1e-4
    second = (smooth_hinge(z + h) - 2 * smooth_hinge(z) + smooth_hinge(z - h)) / h**2
    zz = np.linspace(-60, 60, 24001)
    gap = smooth_hinge(zz) - np.maximum(zz, 0)
    thm31 = max(float(np.max(np.abs(second - np.exp(-z**2 / 2) / np.sqrt(2 * np.pi)))),
                float(max(0.0, -gap.min())), float(abs(gap.max() - 1 / np.sqrt(2 * np.pi))),
                float(gap[0]), float(gap[-1]))
    # Thm 3.2: along random lines w0 + t d, second differences of one sample's loss are positive
    curv = np.inf
    for _ in range(200):
        x, w0, d = rng.normal(size=3), rng.normal(size=3), rng.normal(size=3)
        f = [robust_hinge_loss(w0 + t * d, x[None, :], np.array([1.0]), s)[0] for t in (-1e-2, 0.0, 1e-2)]
        curv = min(curv, (f[0] - 2 * f[1] + f[2]) / 1e-4)
    margins = np.linspace(-3, 3, 601)
    hinge = np.maximum(1 - margins, 0)
    sig = np.array([2.0, 1.0, 0.5, 0.1, 0.01])
    gaps = np.array([np.max(robust_hinge_loss(np.array([1.0]), margins[:, None], np.ones_like(margins), v) - hinge)
                     for v in sig])
    below = min(float(np.min(robust_hinge_loss(np.array([1.0]), margins[:, None], np.ones_like(margins), v) - hinge))
                for v in sig)
    thm33 = max(float(np.max(np.abs(gaps - sig / np.sqrt(2 * np.pi)))), max(0.0, -below))
    # Lemma 2, (2.13): dQ/d(sigma^2) = phi(u / sigma) / (2 sigma) > 0 (central differences in sigma^2, sigma^2 = 0.6)
    uu, s2, hh = np.linspace(-3, 3, 13), 0.6, 1e-6
    q = [robust_hinge_loss(np.array([1.0]), (1 - uu)[:, None], np.ones(13), np.sqrt(v)) for v in (s2 + hh, s2 - hh)]
    dQ = (q[0] - q[1]) / (2 * hh)
    exact = np.exp(-uu**2 / (2 * s2)) / np.sqrt(2 * np.pi) / (2 * np.sqrt(s2))
    lemma2 = float(np.max(np.abs(dQ - exact))) if np.all(dQ > 0) else float("inf")
    return {"prop1": float(quad_err), "thm21_excess": float(excess), "thm31": thm31, "thm32_min_curvature": float(curv),
            "thm33": thm33, "lemma2": lemma2}


#: The noise levels of Fig. 2.3.
FIG2_3_SIGMAS = (2.0, 1.0, 0.5, 0.1, 0.01)


def numbers(records=None, seed=0):
    """The largest errors of :func:`checks`, and ``gap_001``: the largest gap to the hinge at σ = 0.01 (‖w‖ = 1),
    which Theorem 3.3's closed form puts at 0.01 φ(0)."""
    from robustpapers.ginodi2010 import robust_hinge_loss

    margins = np.linspace(-3, 3, 601)
    gap = np.max(robust_hinge_loss(np.array([1.0]), margins[:, None], np.ones_like(margins), 0.01)
                 - np.maximum(1 - margins, 0))
    return dict(checks(seed), gap_001=float(gap))


def draw(records=None, figure="2.2"):
    """Fig. 2.2 (``figure="2.2"``: f against the hinge, and their gap) or Fig. 2.3 (``"2.3"``: the robust loss
    with ‖w‖ = 1 for decreasing σ)."""
    import matplotlib.pyplot as plt

    from robustpapers.ginodi2010 import robust_hinge_loss, smooth_hinge

    from ...plotting import METHOD_COLORS

    if figure == "2.2":
        z = np.linspace(-4, 4, 801)
        fz, hz = smooth_hinge(z), np.maximum(z, 0)
        fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
        axes[0].plot(z, hz, color=METHOD_COLORS["svm"], label=r"hinge $[z]_+$")
        axes[0].plot(z, fz, color=METHOD_COLORS["robust"], label=r"$f(z) = z\Phi(z) + \varphi(z)$")
        axes[0].set_xlabel("$z$")
        axes[0].legend()
        axes[0].set_title("(2.15)")
        axes[1].plot(z, fz - hz, color=METHOD_COLORS["robust"])
        axes[1].axhline(1 / np.sqrt(2 * np.pi), ls=":", color="k", label=r"$\varphi(0) = 1/\sqrt{2\pi}$")
        axes[1].set_xlabel("$z$")
        axes[1].set_ylabel(r"$f(z) - [z]_+$")
        axes[1].legend()
        return fig
    if figure != "2.3":
        raise ValueError(f"figure must be '2.2' or '2.3', got {figure!r}")
    margins = np.linspace(-3, 3, 601)
    fig, ax = plt.subplots()
    ax.plot(margins, np.maximum(1 - margins, 0), color="k", lw=2, label="hinge")
    for v, c in zip(FIG2_3_SIGMAS, plt.cm.viridis(np.linspace(0, 0.9, len(FIG2_3_SIGMAS)))):
        ax.plot(margins, robust_hinge_loss(np.array([1.0]), margins[:, None], np.ones_like(margins), v), color=c,
                label=fr"$\sigma = {v:g}$")
    ax.set_xlabel(r"margin $y\,w^\top x$ ($\|w\| = 1$)")
    ax.set_ylabel("loss")
    ax.legend()
    return fig


def claims(records):
    c = checks()
    out = []
    r = target(max(c["prop1"], max(c["thm21_excess"], 0.0)), 1e-9, 0.0, kind="at_most")
    r["rule"] = "largest quadrature error of (2.16), and largest excess of a random same-trace covariance, at most 1e-9"
    out.append(make(LABEL, id="sec2-prop1-thm2_1", where="Prop. 1, Thm. 2.1", statement=(
        "The worst-case expected hinge over Gaussian clouds with trace-bounded covariance is attained by "
        "Σ* = σ² ww'/‖w‖² and equals the closed form (2.16)."), paper_value="exact", algorithm=ALGORITHM,
        note=NOTE + f" Quadrature error {c['prop1']:.1e}; random covariances exceed (2.16) by at most "
                    f"{c['thm21_excess']:.1e}.", **r))
    r = target(c["thm31"], 1e-5, 0.0, kind="at_most")
    r["rule"] = "largest error of f'' = φ, f ≥ [z]_+, max(f − [z]_+) = φ(0) and the vanishing ends, at most 1e-5"
    out.append(make(LABEL, id="sec2-thm3_1", where="Thm. 3.1", statement=(
        "f(z) = zΦ(z) + φ(z) is a smooth, strictly convex upper approximation of the hinge."),
        paper_value="exact", algorithm=ALGORITHM, note=NOTE + f" Largest error {c['thm31']:.1e}.", **r))
    r = target(c["thm32_min_curvature"], 0.0, 0.0, kind="at_least")
    r["verdict"] = "reproduced" if c["thm32_min_curvature"] > 0 else "not reproduced"
    r["rule"] = "smallest second difference of the loss along 200 random lines (step 1e-2) strictly positive"
    out.append(make(LABEL, id="sec2-thm3_2", where="Thm. 3.2", statement="The robust loss is strictly convex in w.",
                    paper_value="strictly convex", algorithm=ALGORITHM,
                    note=NOTE + f" Smallest second difference {c['thm32_min_curvature']:.2e} (a numerical check on "
                                "random lines, not a proof).", **r))
    r = target(c["thm33"], 1e-9, 0.0, kind="at_most")
    r["rule"] = "largest deviation of max(loss − hinge) from σφ(0) (and of the loss below the hinge) at most 1e-9"
    out.append(make(LABEL, id="sec2-thm3_3", where="Thm. 3.3", statement=(
        "The robust loss is an upper approximation of the hinge and coincides with it as σ → 0."),
        paper_value="exact", algorithm=ALGORITHM, note=NOTE + f" Largest error {c['thm33']:.1e} over σ = 2 … 0.01.",
        **r))
    return out
