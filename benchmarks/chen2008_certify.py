"""chen2008 Table 1 regime: where Algorithm 1 spends its iterations, and what certifies (APG-FW, warm starts).

On the training part of split 0 of Sonar and Heart, with the kernel regime of
``robustpapers.reproduce.chen2008.table1.SETTINGS`` (xi, g chosen on the spectra), at rho = 0.1, 1, 10, 100:

* Algorithm 1 (``indefinite_svm``, pruning, tol 1e-5, up to ``MAX_ITER`` iterations): the gap u+ - l-
  after 10, 100, 300, 1000 iterations, the localisation-set size, and the time in eigen-steps vs master problems;
* APG-FW (``indefinite_svm_apg``, tol 1e-5): from alpha = 0 and warm-started along the rho grid (largest rho
  first), steps, oracle calls, certified gap, time; and the optimum's agreement with Algorithm 1's bounds.

Writes ``benchmarks/chen2008_certify.json``. Run:
``OMP_NUM_THREADS=1 .venv/bin/python benchmarks/chen2008_certify.py [MAX_ITER]``
"""
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np

from robustpapers.chen2008 import indefinite_svm, indefinite_svm_apg, perturbed_gaussian_kernel
from robustpapers.reproduce.chen2008.experiments import _split

REGIME = {"sonar": (50.0, 0.1), "heart": (10.0, 0.5)}  # (g, xi), benchmarks/chen2008_regime.py
RHOS = (100.0, 10.0, 1.0, 0.1)


def main(max_iter=1000):
    out = []
    warnings.simplefilter("ignore")
    for name, (g, xi) in REGIME.items():
        X, y, tr, te = _split(name, 0)
        K0 = perturbed_gaussian_kernel(X, g / X.shape[1], xi, random_state=0)
        Ktr, ytr = K0[np.ix_(tr, tr)], y[tr]
        prev = None
        for rho in RHOS:
            row = dict(dataset=name, rho=rho, n=int(tr.size))
            t0 = time.perf_counter()
            r = indefinite_svm(Ktr, ytr, 1.0, rho, tol=1e-5, max_iter=max_iter)
            row["alg1_time"] = time.perf_counter() - t0
            gap = np.minimum.accumulate(r.upper[1:]) - r.lower[1:]
            row.update(alg1_nit=int(r.nit), alg1_success=bool(r.success), alg1_lower=float(r.lower[-1]),
                       alg1_upper=float(np.min(r.upper[1:])), alg1_gap=float(gap[-1]),
                       alg1_gap_at={str(i): float(gap[min(i, gap.size) - 1]) for i in (10, 100, 300, 1000)},
                       alg1_kernels_max=int(np.max(r.n_kernels)), alg1_time_eig=float(r.time_eig),
                       alg1_time_master=float(r.time_master))
            for start, a0 in (("cold", None), ("warm", prev)):
                if start == "warm" and a0 is None:
                    continue
                t0 = time.perf_counter()
                s = indefinite_svm_apg(Ktr, ytr, 1.0, rho, tol=1e-5, alpha0=a0)
                row[f"apg_{start}"] = dict(time=time.perf_counter() - t0, nit=int(s.nit), n_oracle=int(s.n_oracle),
                                           f=float(s.objective), gap=float(s.gap), success=bool(s.success))
                if start == "warm" or prev is None:
                    best = s
            prev = best.alpha
            # the two algorithms solve the same problem: APG's certified bounds must bracket Algorithm 1's
            row["agree"] = bool(row["alg1_lower"] <= best.upper + 1e-9 and best.objective <= row["alg1_upper"] + 1e-9)
            out.append(row)
            print(json.dumps(row), flush=True)
    return out


if __name__ == "__main__":
    res = main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
    Path(__file__).with_suffix(".json").write_text(json.dumps(res, indent=1))
