"""Heads-up push/fold equilibria over the 169 hand classes, charts, a chart agent and multi-way CFR."""
