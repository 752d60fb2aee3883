"""Language-model players over OpenAI-compatible chat servers (OpenAI, vLLM, Ollama, llama.cpp's server).

``llm:MODEL@BASE_URL[,KEY=VALUE...]`` or ``llm:FILE.toml`` in the registry (``agent_zoo.llm.config``) builds an
``LLMAgent`` (``agent_zoo.llm.agent``) that reads the text view of ``poker_envs.text``; see docs/llm.md.
"""

from __future__ import annotations

from typing import Any

from agent_zoo.llm.agent import LLMAgent
from agent_zoo.llm.client import ChatClient, ChatReply, LLMServerError
from agent_zoo.llm.config import LLMConfig, parse_llm_arg
from agent_zoo.llm.stats import Decision, DecisionCounts


def make_llm_agent(arg: str | None, env: Any) -> LLMAgent:
    """The agent of the spec argument ``arg`` for ``env`` (its text view is built from the env's configuration)."""
    if not arg:
        raise ValueError("agent llm needs a model and a server: llm:<model>@<base_url> (or llm:<config.toml>)")
    config = parse_llm_arg(arg)
    if config.transport == "openai":
        try:
            import openai  # noqa: F401  (checked here, so a missing client fails before any hand)
        except ImportError as exc:
            raise ValueError(f"agent llm:{arg} needs the openai package: pip install 'poker-envs[llm]' ({exc}); "
                             "or transport=http (the standard library's client)") from None
    from poker_envs.text import TextTable

    table = TextTable.for_env(env, amounts=config.amounts, list_actions=config.list_actions, template=config.template,
                              snap=config.snap, summary=config.summary, summary_hands=config.summary_hands)
    return LLMAgent(config, table, name=f"llm:{arg}")


__all__ = ["ChatClient", "ChatReply", "Decision", "DecisionCounts", "LLMAgent", "LLMConfig", "LLMServerError",
           "make_llm_agent", "parse_llm_arg"]
