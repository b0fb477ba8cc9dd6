"""Beyond the papers: the five papers' methods side by side, one module per uncertainty model.

No paper compares these methods with each other; each beats a nominal baseline on its own data and its own
uncertainty model. These modules put them on common data sets (:data:`._common.DATASETS`), ten splits each,
hyper-parameters validated on the training part with the same grid size for every method, every number with its
95 % interval. They make no claims of the papers (the ledger's claims are the papers' own): their results are
tables, ranks and the time each method takes.
"""

#: The comparison modules, one per uncertainty model.
ARTEFACTS = ("input_noise", "missing_values", "kernel_noise", "indefinite_kernels")
