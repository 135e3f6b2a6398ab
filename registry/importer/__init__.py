"""The import of the published IO500 history (lists/ tables and raw submission folders)."""
