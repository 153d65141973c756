"""``GET /metrics``: the server's figures in Prometheus' text format
(``prometheus-client``), each server app with a registry of its own."""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

__all__ = ["Metrics"]


class Metrics:
    """The counters and gauges of one server app."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.tables = Gauge("liverpool_tables_live", "tables held in memory", registry=r)
        self.connections = Gauge("liverpool_connections", "open WebSocket connections",
                                 registry=r)
        self.actions = Counter("liverpool_actions", "actions written and applied",
                               ["source"], registry=r)
        self.latency = Histogram(
            "liverpool_action_update_seconds",
            "from an action received to its updates queued for every connection",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
            registry=r)
        self.storage_errors = Counter("liverpool_storage_errors",
                                      "storage calls that failed or timed out", ["kind"],
                                      registry=r)
        self.evictions = Counter("liverpool_evictions", "tables taken out of memory",
                                 ["reason"], registry=r)
        self.refusals = Counter("liverpool_limit_refusals", "requests refused by a limit",
                                ["kind"], registry=r)
        self.shared_limits_failures = Counter(
            "liverpool_shared_limits_failures",
            "counts of the rates per address that Redis did not take in time", registry=r)
        self.closed_slow = Counter("liverpool_slow_clients_closed",
                                   "connections closed because their send queue was full",
                                   registry=r)

    def watch(self, tables: Callable[[], int], connections: Callable[[], int]) -> None:
        """Read the live gauges from these functions at each scrape."""
        self.tables.set_function(tables)
        self.connections.set_function(connections)

    def refused(self, kind: str) -> None:
        self.refusals.labels(kind=kind).inc()

    def text(self) -> bytes:
        return generate_latest(self.registry)
