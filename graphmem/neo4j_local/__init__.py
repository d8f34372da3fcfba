"""A real local Neo4j 5.26 without Docker: ``graphmem neo4j install|start|stop|status``.

:mod:`~graphmem.neo4j_local.server` installs, starts and stops the server;
:mod:`~graphmem.neo4j_local.system` holds the probes of Java, ports and processes;
``java/`` holds the Maven pom and the launcher, shipped with the package.

Example::

    neo4j = LocalNeo4j(LocalNeo4jConfig(bolt_port=17687, http_port=17474))
    status = neo4j.start()          # SetupError with a readable message if it cannot
    print(status.bolt_uri)          # bolt://127.0.0.1:17687
    neo4j.stop()
"""

from graphmem.neo4j_local.server import (
    LocalNeo4j,
    LocalNeo4jConfig,
    LocalNeo4jStatus,
    default_home,
)

__all__ = ["LocalNeo4j", "LocalNeo4jConfig", "LocalNeo4jStatus", "default_home"]
