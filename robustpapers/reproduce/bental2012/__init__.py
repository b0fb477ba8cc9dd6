"""The reproduction of bental2012: one module per artefact (figure or table) of the paper."""

#: The artefact modules, in the order of the paper.
ARTEFACTS = ("sec5", "sec6", "fig2", "fig3", "nominal", "fig4", "fig5", "fig6", "sec7_5", "table2", "fig7", "table3", "table2_traces")
