"""Observation and action encoding: game states as fixed-shape numpy tensors, a versioned card
vocabulary, the action index layout and exact legal-action masks."""

from .layout import (
    BAND_DOCS,
    ActionLayout,
    Capacities,
    CapacityError,
    EncodingError,
    ObservationLayout,
)
from .observer import Observer
from .vocab import (
    CARD_COLUMNS,
    KEYWORDS_V1,
    VOCAB_VERSION,
    Vocabulary,
    card_index,
    vocabulary,
)

__all__ = [
    "BAND_DOCS", "CARD_COLUMNS", "KEYWORDS_V1", "VOCAB_VERSION", "ActionLayout", "Capacities",
    "CapacityError", "EncodingError", "ObservationLayout", "Observer", "Vocabulary", "card_index",
    "vocabulary",
]
