"""robustpapers: reference implementations of five papers on robust classification under uncertainty."""
__version__ = "0.1.0"
