"""Text renderings of game states (ANSI / human), kept apart from the rules."""
