"""What the JAX trainers (``agent_zoo.jax_ppo``, ``agent_zoo.jax_rnad``) share, one module each.

``network`` (the policy and value MLPs, numpy or JAX), ``rollout`` (the game of a run and self-play on the
functional engine), ``checkpoint`` (the ``.npz`` format of a whole run state, resume), ``loop`` (the host
loop: compile, update, log, checkpoint), ``agent`` (a checkpoint as the zoo's ``jax:`` agent, numpy only)
``exploitability`` (exact exploitability of Leduc / Kuhn checkpoints) and ``league`` (``--league N``: frozen
snapshots as opponents drawn by PFSP, payoff records, admission). Only ``network``, ``checkpoint``, ``agent``,
``exploitability`` and ``league`` import nothing heavy at import; JAX is imported by ``rollout``, ``loop`` and
``devices`` (a run's tables and learner's batch split over several devices, ``--devices``).
"""
