"""graphmem's REST API: build it with :func:`api.app.create_app`."""
