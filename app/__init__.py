"""Pickwise: a conversational shopping backend."""
