"""Extractors turn an episode into entities and facts (rules offline, or one LLM call)."""
