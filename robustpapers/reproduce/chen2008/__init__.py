"""The reproduction of chen2008: one module per artefact (figure or table) of the paper."""

#: The artefact modules, in the order of the paper.
ARTEFACTS = ("fig1", "fig2", "fig3", "sec5", "proxy", "table1", "sec6_3", "table1_first", "rho_sweep", "xi_sweep", "speed")
