"""Labelled examples as evidence for choice questions: the index, its file, and `clef-tools fit`."""

from clef_tools.examples._fit import Example, build_index, read_examples, sample_per_label
from clef_tools.examples._index import ExampleIndex, ExampleIndexError

__all__ = [
    "Example",
    "ExampleIndex",
    "ExampleIndexError",
    "build_index",
    "read_examples",
    "sample_per_label",
]
