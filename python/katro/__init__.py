"""katro from Python: Katro variants, game states, katro's agents and
experiments, backed by the Rust engine (python/README.md)."""

from katro._katro import (
    Agent,
    ExperimentError,
    IllegalMoveError,
    Report,
    State,
    Variant,
    VariantError,
    __version__,
    presets,
)

__all__ = [
    "Agent",
    "ExperimentError",
    "IllegalMoveError",
    "Report",
    "State",
    "Variant",
    "VariantError",
    "presets",
]
