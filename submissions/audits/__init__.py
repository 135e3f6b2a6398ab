"""Audits and objections: at a release's deadline a seeded, reproducible draw picks submissions whose
submitters re-run one phase under a fresh run token (draw.py is the pure algorithm); any submitter of
a release may object to an entry of its draft lists, and the committee answers every objection
before it can publish (docs/audits.md)."""
