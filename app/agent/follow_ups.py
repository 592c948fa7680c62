"""Public surface of the follow-up reader: how a message follows up on the picks shown."""

from __future__ import annotations

from app.agent._follow_ups import FollowUp, FollowUpCues, follow_up_cues, read_follow_up

__all__ = ["FollowUp", "FollowUpCues", "follow_up_cues", "read_follow_up"]
