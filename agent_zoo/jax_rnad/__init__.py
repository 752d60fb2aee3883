"""R-NaD with two-stage averaging in pure JAX: hands and learner in one jitted update (``python -m agent_zoo.jax_rnad``).

``config.RNaDJaxConfig`` is a run's configuration, ``train.train`` runs it (checkpoints, resume, exact
exploitability), ``learner`` holds the update's math (reward transformation, V-trace, NeuRD, the averaging
rates). The network, the rollout on the functional engine, the checkpoint format, the host loop and the zoo
agent (``jax:<checkpoint.npz>``: the regularisation policy) are ``agent_zoo.jax_common``'s, shared with
``agent_zoo.jax_ppo``. Only ``config`` imports nothing heavy; JAX is imported by ``learner`` and ``train``.
"""
