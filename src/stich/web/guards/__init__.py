"""The guards: the limits and checks between the open network and the tables.

* :mod:`.request_limits` – body size and time per HTTP request;
* :mod:`.cross_site` – refusing state-changing requests from other sites' pages;
* :mod:`.client_address` – who is asking (``X-Forwarded-For`` only from trusted proxies);
* :mod:`.login_limit` – failed logins per name, address and address across names;
* :mod:`.socket_limits` – sockets per person and address, message rate per socket;
* :mod:`.table_caps` – tables and search-bot tables per person and address, bot levels;
* :mod:`.names` – the one rule for account and guest names;
* :mod:`.passwords` – Argon2 password hashes on a bounded pool of their own.

Pure policy: counting, checking and refusing.  May import only the base modules
(``identity``, ``protocol``, ``settings``) and the layers below ``stich.web``; never storage,
the runtime or the API, so that every layer above can use a guard.
"""
