"""Several server workers sharing one PostgreSQL and one Redis (issue 33; docs/decisions/0033-several-workers.md).

With ``redis_url`` set (``stich serve --redis URL``), :func:`stich.web.app.create_app`
runs a :class:`~stich.web.cluster.manager.ClusterTableManager` instead of the
one-process :class:`~stich.web.runtime.manager.TableManager`:

* **Leases** (:mod:`.leases`): a worker runs a table only while it holds the
  table's Redis lease, renewed every third of ``lease_seconds``; a dead
  worker's tables are taken over by whoever finds them without a lease,
  rebuilt from the stored actions exactly as after a restart.
* **Commands** (:mod:`.manager`): a client may connect to any worker.  A
  worker that does not run the table forwards the client's messages, in
  order, on the table's Redis stream, which only the owner reads; REST calls
  that change a table (join, leave, bots) go the same way and wait for the
  owner's answer.
* **Sockets at their table's worker** (:mod:`.direct`): a worker may
  advertise its own address (``worker_url``); a client that follows is then
  sent there (``moved``) instead of relayed, so the relay is the fallback.
* **Messages back** (:mod:`.remote`): the owner writes to each remote client
  exactly what it would write to a local one, published on the inbox channel
  of the client's worker and addressed to that client; so a worker receives
  only views its own clients may see.
* **Shared limits** (:mod:`.shared_limits`): the login and message rate
  limits are counted in Redis, so they hold across workers.
* **Shared table caps** (:mod:`.shared_caps`): the tables and the tables
  with search bots per person and per address too, so that one person
  cannot load every worker's bot pool (each worker keeps its own pool).

Without ``redis_url`` nothing here is imported and one process runs every
table (``make run``).
"""
