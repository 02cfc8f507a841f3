"""The volume state machine: ONE declarative table of transitions.

Each transition names an action, the resource whose row it
compare-and-swaps, the statuses it may start from, the other conditions that
must hold, the values it writes, the lowest microversion and whether only an
admin may ask for it. Everything else is derived from the table:

- the API refuses early (version, admin) from it
  (:func:`engine.check_allowed`);
- the ``UPDATE ... WHERE`` of the compare-and-swap is built from it, and a
  failed one is explained from the same conditions ("volume status must be
  'available', it is 'in-use'");
- ``python -m volapi.volume.transitions`` prints the Markdown reference
  (doc/transitions.md) from it.

The package's parts:

- :mod:`.vocabulary`: the types a table row is written in (Transition,
  Param, Loaded, Computed, Criterion, Also, Bound, Unchanged, NOW);
- :mod:`.table`: the table, a module per concern (volumes, attachments,
  snapshots, transfers, the manager's side, reconciliation), and the
  statuses it speaks of, nothing else;
- :mod:`.blocks`: the SQL criteria and computed values its rows use;
- :mod:`.engine`: compiling a row for one object (:func:`engine.prepare`),
  running steps in one transaction (:func:`engine.run`), one transition on
  its own (:func:`engine.apply`) and the read-free fast path
  (:func:`engine.apply_to_own`), and the errors they raise;
- :mod:`.doc`: the documentation generator.

A transition may also insert its row (``creates``: volume, snapshot and
attachment creation), so the table holds every change of every row.

Transitions that move a resource into a status a worker will finish
(``creating``, ``extending`` ...) upsert the resource's ``workers`` row in the
same transaction (``service_id`` NULL until a worker claims it); the
worker's own transitions (``create_done`` ...) delete it in theirs.
``table.CLEANUP`` says which transition repairs a row left behind.
"""
