"""One module per resource; :data:`ROUTERS` is what the app mounts, in order."""

from __future__ import annotations

from api.routes import (
    context,
    entities,
    episodes,
    events,
    forget,
    health,
    jobs,
    lifecycle,
    memories,
    portability,
    profile,
    search,
    todos,
)

ROUTERS = [health.router, episodes.router, jobs.router, search.router, memories.router,
           context.router, entities.router, forget.router, events.router, lifecycle.router,
           profile.router, todos.router, portability.router]
