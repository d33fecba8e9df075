"""What a table's deals are, read from rules and records alone: no sockets, no database.

* :mod:`.fairness` – the commitment to each deal's seed, revealed afterwards;
* :mod:`.session_kinds` – free play and the fixed lists of deals a table may hold;
* :mod:`.deal_facts` – what one finished deal was for one seat (history);
* :mod:`.absence` – which deals a stand-in bot played for a person;
* :mod:`.ratings` – who a rated deal rates, on which side, and the openskill update (decision 0055).

May import: the base modules (``protocol``, ``settings``, ``identity``) and the layers below
``stich.web`` (core, games, bots).  Nothing else of :mod:`stich.web`.
"""
