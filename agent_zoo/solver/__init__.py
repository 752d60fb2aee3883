"""Range-vs-range CFR on heads-up postflop subgames, exact best response, and an agent that re-solves as it plays."""
