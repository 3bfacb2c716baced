"""Reports built from run directories: one module per section, an HTML assembler, a builder.

Reports read only what ``zsim run`` writes (the Parquet tables and ``run.json``), never engine
internals, so any run directory, old or new, can be reported on.
"""
