"""The JAX engine: the numpy batched engine (``poker_envs.vector``) as pure functions over pytrees (``[jax]`` extra).

Every game is first a functional game (pure ``init`` / ``step`` over one state pytree, see ``functional``;
each game module's ``make_*`` builds one, named by the catalog's ``jax_factory``); the stateful engine that
``vector.make(..., backend="jax")`` returns wraps it (``stateful.JaxVectorGame``). The state types are named
for what they hold, many tables: ``HoldemTables`` (the numpy ``Tables``), ``SessionTables``, ``KuhnTables``... Each file
pairs the numpy file of the same name one folder up, function by function, and the differential tests bind the
pairs (and through them the rules core):

==============================  =======================================  ==========================================
numpy (``poker_envs/vector/``)  JAX (``poker_envs/vector/jax/``)         what
==============================  =======================================  ==========================================
``holdem.py``                   ``holdem.py``                            hold'em engine (no-limit, limit, pot-limit,
                                                                         short deck, Omaha) and its factories
``_holdem_kernels.py``          ``_holdem_kernels.py``                   betting, streets, showdowns, deals
``_holdem_cnn.py``              ``_holdem_cnn.py``                       the ``poker_cnn`` tensors
``holdem_session.py``           ``holdem_session.py``,                   sessions: carried stacks, blind levels,
                                ``_holdem_session_kernels.py``           eliminations, ICM
``push_fold.py``                ``push_fold.py``                         push-or-fold
``kuhn.py``, ``leduc.py``       ``kuhn.py``, ``leduc.py``                Kuhn poker, Leduc hold'em
``_small.py``                   ``_small.py``                            what those two share
``core.evaluator``,             ``_showdown.py``                         hand values and pot settlement
``core.settlement``
``base.py``                     ``functional.py``                        the contract (``VectorStep``, pure form)
``base.py``                     ``base.py``                              every engine's step ending: auto-reset,
                                                                         ``active``, illegal actions
==============================  =======================================  ==========================================

``stateful.py`` is the one stateful wrapper (host-side checks, reset's seed and options, sharding) around any
functional game. Nothing in ``poker_envs.vector`` outside this package imports JAX.
"""
