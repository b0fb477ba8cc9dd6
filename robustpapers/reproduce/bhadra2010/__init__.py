"""The reproduction of bhadra2010: one module per artefact (figure or table) of the paper."""

#: The artefact modules, in the order of the paper.
ARTEFACTS = ("sec3", "qn_scaling", "table1", "ablation", "fig1", "fig2", "fig3", "table2", "speed")
