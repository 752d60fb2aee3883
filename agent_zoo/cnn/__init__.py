"""CNN value players for no-limit hold'em (000_15d38e321f106268.txt): heuristic bootstrap, self-play
generations, duplicate-deal round robin. ``python -m agent_zoo.cnn train|evaluate --help``."""
