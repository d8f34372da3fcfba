"""The write path: one editing unit (unit.py), what it hands on (changes.py), the audit
trail (audit.py) and the sink that publishes events (publish.py)."""
