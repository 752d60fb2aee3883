"""wrappers: single-agent Gymnasium views, self-play and hand-history recording over poker_envs."""
