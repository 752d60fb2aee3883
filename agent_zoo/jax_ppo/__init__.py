"""Self-play PPO in pure JAX: environment and learner in one jitted update (``python -m agent_zoo.jax_ppo``).

``config.PPOConfig`` is a run's configuration, ``train.train`` runs it (checkpoints, resume), ``agent.JaxPPOAgent``
plays a checkpoint in the zoo (spec ``jax:<checkpoint.npz>``, numpy only) and ``exploitability`` measures Leduc
and Kuhn checkpoints exactly. Only ``config`` and ``network`` import nothing heavy; JAX is imported by ``train``.
"""
