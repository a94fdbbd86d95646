"""Labelled examples as evidence for choice questions: the index, its file, and `clef-tools fit`."""

from clef_tools.examples._fit import Example, build_index, read_examples, sample_per_label
from clef_tools.examples._index import ExampleIndex, ExampleIndexError
from clef_tools.local._encoder import Encoder, open_encoder

__all__ = [
    "Encoder",
    "Example",
    "ExampleIndex",
    "ExampleIndexError",
    "build_index",
    "open_encoder",
    "read_examples",
    "sample_per_label",
]
