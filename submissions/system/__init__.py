"""The system description of a result, whole: every way it arrives and everything done with it.

    schema.py, schema_io500.json  the IO500 community schema (its field table, reduced from io500.org's)
    document.py, extract.py       reading a community-schema document; the registry's typed fields from it
    description.py                a description given with an upload (form, API) or read from a file:
                                  flat names or a community document, strict or lenient
    files.py                      description files as submitters wrote them, recovered where broken
    archive_files.py              the description files an unpacked archive carries
    from_run.py                   what the run itself tells (client nodes, processes, version, file system)
    checks.py                     checks of the declared system against the run (scoring findings)
    services.py                   the writes: at upload, and at ingest (archive file, then the run)
    groups.py                     the description grouped for reading, as the schema groups it

Nothing here imports `submissions.ingest`: the ingest calls in (archive_files, checks, services).
"""
