"""Snippets mypy checks (``tests/test_exporter_contract.py``); pytest collects none of them."""
