"""Shipped policy packs; ``default.yaml`` is the embedded default."""
