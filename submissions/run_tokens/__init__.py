"""Run tokens: the registry issues a single-use, expiring token to a submitter for one run, the run is
made with `--timestamp=<token>`, and the ingest checks that the run shows it (scoring/tokens.py) and
that it is this account's, unused and for this release (services.run_token_redeem)."""
