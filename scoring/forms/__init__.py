"""Forms, one module per screen: ``entry`` (the table screen's deal), ``club`` (the club pages:
evenings, tables, players, members, rule profiles), ``season`` (seasons and their players),
``settlement`` (the treasurer's page). A form checks the shape of the input; the rules are the
engine's, the writes the services' (scoring/writes/)."""
