"""The sweeps of the structure analog (:mod:`robustpapers.structures`) that the proteins pages of bental2012 and
bhadra2010 rest on: kernel spread, multi-instance kernels, accuracy of the Fourier kernel (see ``experiments``)."""
