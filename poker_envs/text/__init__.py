"""Text and JSON views of hold'em-family tables, and the reply parser, for language-model players (docs/llm.md).

``TextTable.for_env(env)`` (the env built with ``history=True``) gives, per observation dict: ``state_json``,
``prompt``, ``parse(reply)`` -> ``Parsed``, ``reprompt`` and ``fallback``. No torch, no agent_zoo.
"""

from poker_envs.text.actions import LegalAction, Sizing, sized_word
from poker_envs.text.parser import FAILURE_KINDS, Parsed
from poker_envs.text.schema import SCHEMA_VERSION, STATE_SCHEMA
from poker_envs.text.views import TextTable

__all__ = ["FAILURE_KINDS", "SCHEMA_VERSION", "STATE_SCHEMA", "LegalAction", "Parsed", "Sizing", "TextTable", "sized_word"]
