"""Fixtures of the cluster tests (see kit.py)."""

from tests.cluster.kit import cluster

__all__ = ["cluster"]
