"""One module per schema revision, oldest first (``v0001_initial``: the first schema)."""
