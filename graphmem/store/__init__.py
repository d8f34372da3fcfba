"""Stores: one Protocol (:mod:`graphmem.store.base`), one module per backend."""
