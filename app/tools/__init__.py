"""The shopping tools, one room (sub-package) each, ranked: llm < plan < terms < base and
candidates (here) < planner, search, compare, browse < picker < summary. A room imports only
rooms below it, through their package (its `__all__`), never their private modules."""

__all__: list[str] = []
