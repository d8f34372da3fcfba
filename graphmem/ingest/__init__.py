"""Ingestion: episode -> extract -> resolve -> apply timeline rules -> one store batch."""
