"""A game seen step by step: the record of its steps (``record``) and the page (``page``)."""
