"""Demo data: clubs, seasons and a federation played through the engine and written through
the services, for demos, benchmarks and tests. It writes, so it stands above writes/ (and
below the web: the management commands demo, demo_season and demo_federation call it).

- ``user``: the demo user who runs the demo clubs;
- ``evening``: the demo club of `manage.py demo`, a played evening;
- ``season``: a club with a played league season (`manage.py demo_season`);
- ``federation``: a federation of clubs for benchmarks (`manage.py demo_federation`).

The deals themselves are the engine's ``generate_deals``.
"""
