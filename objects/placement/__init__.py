"""Placement's data: resource classes, providers (trees), inventories,
traits, aggregates, usages; allocations and consumers.

Modules expose functions over rows (plain mappings) rather than versioned
objects: placement data never travels over RPC, and a claim must not pay
for object machinery. Every change of a provider's inventories, traits or
aggregates is a compare-and-swap of its generation (db.api), in the same
transaction as the rows it guards.
"""
