"""Shared fixtures for the whole suite.

Fixture families live in their own modules and are loaded here as plugins, so this
file stays a short table of contents that everyone can extend:

- ``tests.neo4j_fixtures``: ``neo4j_uri`` (a real Neo4j for the session: NEO4J_URI,
  testcontainers or graphmem's local launcher), ``neo4j_driver`` and ``clean_neo4j``.
  Tests that need the server are marked ``@pytest.mark.neo4j``.
- ``tests.store_fixtures``: ``store`` (the contract suite's one fixture, parametrized
  over the embedded store and Neo4j), ``embedder`` (the real ONNX MiniLM) and ``tenant``
  (a fresh tenant id per test, which is what isolates tests on the shared Neo4j).
- ``tests.llm_server_fixtures``: ``llm_server`` (a real llama-cpp-python server with a
  small GGUF model, started once per session). Tests that need it are marked
  ``@pytest.mark.llm_server``.

``make test`` runs the suite on pytest-xdist workers with ``--dist loadfile``. Every
session fixture above belongs to one worker, so each worker starts its own Neo4j on free
ports, and a migration test that drops every index cannot disturb another worker's tests.
A file runs whole on one worker, so the LLM server's tests and the browser's, each in a
file of their own, start one server and one browser, not one per worker.
"""

from __future__ import annotations

pytest_plugins = [
    "tests.neo4j_fixtures",
    "tests.llm_server_fixtures",
    "tests.store_fixtures",
]
