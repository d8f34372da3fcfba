"""The production store: Neo4j through the official driver, every statement parameterised.

``store`` holds the GraphStore methods and ``connection`` runs their transactions;
``reads``, ``writes``, ``search_reads``, ``resolution``, ``search``, ``reminders``,
``timelines`` and ``requests`` hold the Cypher as data, ``schema`` the constraints and
indexes, ``records`` the mapping back to models.
"""

from graphmem.store.neo4j.store import Neo4jStore

__all__ = ["Neo4jStore"]
