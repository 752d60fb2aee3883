"""Bridges: zoo agents playing outside programs through their own protocols (Slumbot's HTTP API)."""
