"""The embedding engine: a sentence encoder, the example index (labelled rows as evidence
for choice questions), its file, and the `EmbeddingDecider` that answers from them.

`Example`, `open_encoder` and `sample_per_label` are public here for the surfaces that build
indexes (the LangChain router); the rest is re-exported by `clef_tools`."""

from typing import TYPE_CHECKING

from clef_tools._lazy import lazy_names

if TYPE_CHECKING:
    from clef_tools.backends.embedding._encoder import Encoder, open_encoder
    from clef_tools.backends.embedding._fit import (
        Example,
        build_index,
        read_examples,
        sample_per_label,
    )
    from clef_tools.backends.embedding._index import ExampleIndex, ExampleIndexError

_WHERE = {
    "Encoder": "clef_tools.backends.embedding._encoder",
    "Example": "clef_tools.backends.embedding._fit",
    "ExampleIndex": "clef_tools.backends.embedding._index",
    "ExampleIndexError": "clef_tools.backends.embedding._index",
    "build_index": "clef_tools.backends.embedding._fit",
    "open_encoder": "clef_tools.backends.embedding._encoder",
    "read_examples": "clef_tools.backends.embedding._fit",
    "sample_per_label": "clef_tools.backends.embedding._fit",
}
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

__getattr__, __dir__ = lazy_names(__name__, _WHERE, __all__)
