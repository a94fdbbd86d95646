"""Backends, by floor: the `Decider` contract and the spec syntax here; shared local-model
plumbing in `local/`; one folder per engine family (`readout/`, `embedding/`, `hosted/`,
`release/`); backends built on others in `compose/`; the registry (kind → opener) and
`load_decider` on top.

The spec syntax is public here for the surfaces that name backends without opening one
(which question types a spec answers, how a spec string parses); everything else is
re-exported by `clef_tools`."""

from clef_tools.backends._spec import (
    BackendSpec,
    LoadOptions,
    parse_spec,
    question_types,
    spec_forms,
)

__all__ = ["BackendSpec", "LoadOptions", "parse_spec", "question_types", "spec_forms"]
