"""Compute a chapter's paper-scale sweep piecewise, one task at a time, each cached as soon as it ends.

A chapter whose sweeps are too long for one sitting defines them once, in
``robustpapers.reproduce.<paperkey>.experiments.paper_scale_tasks(experiment, seed, datasets)`` (chen2008: Table 1
needs about ten CPU hours; bhadra2010: Table 1 a few, see its page). Its page reads the same records, so a sweep can be
computed a data set at a time, over several sessions or on several machines sharing ``results/``; tasks
already cached are skipped. Re-execute the pages afterwards (``python -m robustpapers run <page>``; the script
names them when it has computed something: they glue how much of the sweep is cached) and commit them with the
records they read.

Usage: python scripts/paper_scale.py chen2008 table1_certified [--datasets sonar heart] [--seed 0] [--reverse]
       python scripts/paper_scale.py chen2008 table1 [--datasets sonar heart]   (Table 1 as first computed)
       python scripts/paper_scale.py bhadra2010 table1 --datasets 0 1
       python scripts/paper_scale.py bental2012 fig2 [--datasets uniform beta] [--reverse | --shard 0/2]   (1950 folds)
       python scripts/paper_scale.py bental2012 fig3 [--datasets beta] [--shard 1/2]   (Figs. 3-4: 1200 tasks)
       python scripts/paper_scale.py bental2012 fig5 [--reverse]
       python scripts/paper_scale.py bhadra2010 table2_proteins --datasets 0   (Table 2: a family at a time)
       python scripts/paper_scale.py bental2012 table2_proteins --datasets 0 1 [--reverse]   (problems 0..104)
       python scripts/paper_scale.py bental2012 table2_proteins_mn [--reverse]   (USSVM_MN's rows, bias floor)

A task that checkpoints (bental2012's Fig. 5 runs, hours each) and is killed leaves
``results/<paperkey>/<experiment>/<key>.checkpoint``; commit it, and the next run of the same command, here or
elsewhere, goes on from it.

Two workers can share one data set: start the second with ``--reverse``; each skips the tasks the other
has cached by the time it reaches them, so they meet in the middle (at most one task is computed twice).
Or, to go through the tasks in their order together, give K workers ``--shard 0/K`` .. ``--shard K-1/K``: worker i
takes tasks i, i + K, i + 2K, ... (bental2012's Fig. 2 comes a data set and a fold at a time, so K workers
finish the first block of 39 folds, one sample of every curve, together).
"""
from __future__ import annotations

import sys

from robustpapers.reproduce.sweeps import main

if __name__ == "__main__":
    sys.exit(main())
