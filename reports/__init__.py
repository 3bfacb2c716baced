"""Reports built from run directories: one module per section, an HTML assembler, a builder.

Reports read only what ``zsim run`` writes (the Parquet tables and ``run.json``), never engine
internals, so any run directory, old or new, can be reported on.
"""

# One file, one import name: from the repository's root this directory could also be imported
# as ``reports``, a second copy of every module (docs/architecture.md, "The layout").
if __name__ != "zsim.reports":
    raise ImportError(f"import zsim.reports, not {__name__}: the reports are a part of zsim")
