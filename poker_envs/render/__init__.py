"""What ``render()`` shows, kept apart from the rules: the text tables ("ansi" / "human": ``holdem``,
``small_games``) and the pictures ("rgb_array": ``frames.table_frame``, from a view of the state in ``table``,
placed by ``layout`` and drawn by ``draw``; ``gif`` writes a hand as a GIF)."""
