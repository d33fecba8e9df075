"""The live tables: everything that runs while people play, in the process that owns a table.

* :mod:`.table` – one table's owner: the command loop (check, store, apply, broadcast), its driver
  task, and what each seat and spectator is sent;
* :mod:`.seats` – a table's seats, the bot specs it accepts, the bot seeds, a new table's row;
* :mod:`.connection` – one client socket's outgoing queue and session check;
* :mod:`.manager` – all tables of this process: loading, creating, finding, caps, shutdown;
* :mod:`.broadcast`, :mod:`.turn_clock`, :mod:`.presence`, :mod:`.ready_wait`, :mod:`.chat`,
  :mod:`.action_log`, :mod:`.bot_pool`, :mod:`.session_watch` – the parts a table is built from.

May import: :mod:`stich.web.storage`, :mod:`stich.web.guards`, :mod:`stich.web.deals` and the base
modules (``identity``, ``protocol``, ``settings``).  Never the API (:mod:`stich.web.api`): the
routes call the runtime, not the other way round; nor :mod:`stich.web.cluster`, which builds on it.
"""
