"""The HTTP and WebSocket API, one module per resource: the edge where requests come in.

* :mod:`.accounts` – register, login, logout, ``me``, guest names (``/api/auth``); the account page (``/api/account``);
* :mod:`.table_end` – a table's final standings, its score sheet as CSV, Revanche;
* :mod:`.social` – invite notices (``/api/invites``);
* :mod:`.people` – who is online, friends, inviting a friend to one's table;
* :mod:`.quickstart` – Schnellstart;
* :mod:`.session` – the session cookie: who is asking (an :class:`~stich.web.identity.Identity`),
  and a guest session made on first need;
* :mod:`.lobby` – games, tables, seats, bots, invites, deals and records (``/api/*``);
* :mod:`.history` – replays, a person's statistics and deals, the bots on offer (``/api/deals/{id}/replay``, ``/api/me/*``, ``/api/bots``);
* :mod:`.ratings` – leaderboards and player profiles (``/api/ratings/{game}``, ``/api/players/{name}``);
* :mod:`.cards` – the card pictures;
* :mod:`.learning` – hints at learning tables, "play this deal again" and the comparison (issue 43);
* :mod:`.table_socket` – the table WebSocket (``/ws/tables/{id}``), handed to the live table;
* :mod:`.services` – the objects the composition root (:func:`stich.web.app.create_app`) builds
  and hands to every handler.

May import: :mod:`stich.web.runtime`, :mod:`stich.web.storage`, :mod:`stich.web.guards`,
:mod:`stich.web.deals`, :mod:`stich.web.card_art` and the base modules (``identity``,
``protocol``, ``settings``), and the layers below ``stich.web`` (arena, bots, core).
Never :mod:`stich.web.app` nor :mod:`stich.web.cluster` (the root picks the table manager).
"""
