"""The reproduction of bental2012: one module per artefact (figure or table) of the paper."""

#: The artefact modules, in the order of the paper.
ARTEFACTS = ()
