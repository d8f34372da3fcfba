"""Settings: a GRAPHMEM_ variable no setting reads is named, with the closest setting."""

from __future__ import annotations

from graphmem.settings import unknown_variables


def test_a_misspelt_variable_is_named_with_the_setting_it_likely_meant() -> None:
    lines = unknown_variables({"GRAPHMEM_DATA_DIR": "/srv", "GRAPHMEM_DB_PATH": "/srv/g.db",
                               "GRAPHMEM_API_KEY": "x", "GRAPHMEM_FROBNICATE": "1",
                               "HOME": "/root", "graphmem_store": "neo4j"})
    assert lines == [
        "GRAPHMEM_API_KEY is not a graphmem setting and is ignored; "
        "did you mean GRAPHMEM_API_KEYS?",
        "GRAPHMEM_DATA_DIR is not a graphmem setting and is ignored; "
        "did you mean GRAPHMEM_DB_PATH?",
        "GRAPHMEM_FROBNICATE is not a graphmem setting and is ignored",
    ]


def test_every_setting_s_own_variable_passes() -> None:
    from graphmem.settings import Settings

    assert unknown_variables({f"GRAPHMEM_{name.upper()}": "" for name in Settings.model_fields}) \
        == []
