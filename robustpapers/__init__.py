"""robustpapers: reference implementations of five papers on robust classification under uncertainty."""
__version__ = "0.2.0"
