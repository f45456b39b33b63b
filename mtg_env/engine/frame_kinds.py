"""Every kind of frame, by its stored ``"k"``: reading a stored frame back (``serialize.py``)."""

from __future__ import annotations

from typing import Any

from .frames import (
    AssignFrame,
    AttackFrame,
    BlockFrame,
    CastFrame,
    CleanupFrame,
    Frame,
    MulliganFrame,
    PayFrame,
    PutFrame,
    ResolveFrame,
    RetargetFrame,
    ShuffleFrame,
    YesNoFrame,
)
from .frames_choice import ChooseFrame
from .frames_effects import DrawsFrame, EnterChoiceFrame, EnterTogetherFrame, OrderReplFrame, TextChangeFrame

FRAME_CLASSES: tuple[type[Frame], ...] = (CastFrame, ResolveFrame, YesNoFrame, PayFrame,
                                          RetargetFrame, ShuffleFrame, CleanupFrame, MulliganFrame,
                                          AttackFrame, BlockFrame, DrawsFrame, OrderReplFrame,
                                          TextChangeFrame, EnterTogetherFrame, PutFrame, AssignFrame,
                                          EnterChoiceFrame, ChooseFrame)
_BY_KIND: dict[str, type[Frame]] = {c.KIND: c for c in FRAME_CLASSES}


def frame_from_json(d: dict[str, Any]) -> Frame:
    """The frame stored as ``d`` (checked: its ``"k"`` is a known kind)."""
    return _BY_KIND[d["k"]].from_json(d)
