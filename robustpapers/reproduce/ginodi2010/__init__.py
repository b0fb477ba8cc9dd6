"""The reproduction of ginodi2010: one module per artefact (figure or table) of the paper."""

#: The artefact modules, in the order of the paper.
ARTEFACTS = ("sec2", "alg1", "table2_2", "fig2_5", "fig2_6", "fig2_7", "fig3_1", "sec3", "alg2", "table4_1", "fig4_1", "eq5_16", "table5_2", "fig5_2", "appa", "appb")
