"""Exact symmetric equilibrium of the threshold game, its exploitability and a threshold agent."""
