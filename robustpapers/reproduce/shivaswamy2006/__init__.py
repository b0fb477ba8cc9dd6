"""The reproduction of shivaswamy2006: one module per artefact (figure or table) of the paper."""

#: The artefact modules, in the order of the paper.
ARTEFACTS = ("sec3", "fig1", "table1", "sec4_3", "sec5", "sec5_3", "sec7_1", "fig2", "fig3_4", "fig3_4_ridge",
             "fig5_7", "fig5_7_validated", "fig8", "fig9", "fig10")
