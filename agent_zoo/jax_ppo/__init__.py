"""Self-play PPO in pure JAX: environment and learner in one jitted update (``python -m agent_zoo.jax_ppo``).

``config.PPOConfig`` is a run's configuration and ``train.train`` runs it (checkpoints, resume). The network,
the rollout on the functional engine, the checkpoint format, the host loop, the zoo agent (spec
``jax:<checkpoint.npz>``, numpy only) and the exact exploitability of Leduc and Kuhn checkpoints are
``agent_zoo.jax_common``'s, shared with ``agent_zoo.jax_rnad``. Only ``config`` imports nothing heavy; JAX is
imported by ``train``.
"""
