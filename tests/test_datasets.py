"""Every dataset loads offline with the shape, labels and card it claims."""
import numpy as np
import pytest

from robustpapers.datasets import DATASET_CARDS, binary_subset, list_datasets, load_dataset

EXPECTED = {"sonar": (208, 60), "ionosphere": (351, 33), "heart": (270, 13), "pima": (768, 8),
            "wisconsin": (683, 9), "splice": (3190, 240), "optdigits": (5620, 64), "wine": (178, 13),
            "mnist5000": (5000, 256), "boston": (506, 13)}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_shapes_labels_and_card(name):
    ds = load_dataset(name)
    assert ds.X.shape == EXPECTED[name] == (ds.card["n"], ds.card["d"])
    assert ds.X.dtype == float and np.all(np.isfinite(ds.X))
    for key in ("title", "source", "licence", "differs", "papers"):
        assert ds.card[key], key
    classes = ds.card["classes"]
    if classes is None:
        assert ds.y.dtype == float
    elif len(classes) == 2:
        assert set(np.unique(ds.y)) == {-1.0, 1.0}
    else:
        assert set(np.unique(ds.y)) == set(range(len(classes)))


def test_known_class_counts():
    # Published class sizes of the UCI sets.
    assert (load_dataset("sonar").y > 0).sum() == 111          # mines
    assert (load_dataset("pima").y > 0).sum() == 268
    assert (load_dataset("wisconsin").y > 0).sum() == 239       # malignant
    assert np.bincount(load_dataset("splice").y).tolist() == [767, 768, 1655]
    splice = load_dataset("splice").X.reshape(3190, 60, 4)
    assert np.allclose(splice.sum(axis=2), 1.0)                  # one unit of mass per position
    assert len(splice) - len(np.unique(splice.reshape(3190, -1), axis=0)) == 185  # as the card says


def test_binary_subset():
    ds = binary_subset(load_dataset("optdigits"), "3", "8")
    assert set(np.unique(ds.y)) == {-1.0, 1.0}
    assert ds.card["positive"] == "3" and ds.X.shape[0] == 572 + 554
    with pytest.raises(ValueError, match="differ"):
        binary_subset(load_dataset("wine"), 1, 1)
    with pytest.raises(ValueError, match="not in"):
        binary_subset(load_dataset("wine"), "7", "1")


def test_unknown_dataset():
    with pytest.raises(ValueError, match="unknown dataset 'usps'"):
        load_dataset("usps")
    assert set(list_datasets()) == set(DATASET_CARDS)
