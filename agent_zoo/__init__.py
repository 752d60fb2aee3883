"""agent_zoo: agents that solve and learn the poker_envs games, all acting through the environment API."""
