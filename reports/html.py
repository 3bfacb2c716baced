"""Assemble the report page: one self-contained HTML file that works offline.

Figures are embedded as SVG data URIs in ``<img>`` tags: they stay sharp at any zoom, and each
SVG keeps its own ids (inline ``<svg>`` elements would share one id space and could clip each
other). The CSS is embedded; there is no script, so the page has nothing to fail at load time.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Callable
from typing import Any

import jinja2
import markupsafe
import pandas as pd

from zsim.reports.assumed import reasons
from zsim.reports.findings import finding_detail, significance_sentence
from zsim.reports.model import GROUPS, Block, Figure, Finding, FindingList, Points, Section, Table

TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }}</title>
<style>
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0;
       color: #1d1d1f; line-height: 1.45; background: #fff; }
main { max-width: 1000px; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.3rem; border-bottom: 2px solid #ddd; padding-bottom: 0.2rem;
     margin-top: 2.5rem; }
h3 { font-size: 1.05rem; margin: 1.5rem 0 0.4rem; }
nav ol { columns: 2; padding-left: 0; list-style: none; }  /* titles carry their numbers */
figure { margin: 1.2rem 0; }
figure img { max-width: 100%; height: auto; display: block; }
figcaption { font-size: 0.9rem; color: #333; background: #f6f6f6; padding: 0.5rem 0.7rem;
             border-left: 3px solid #999; }
figcaption .files { font-size: 0.8rem; color: #666; }
.note { background: #f0f5ff; padding: 0.5rem 0.7rem; border-left: 3px solid #6b8fd6; }
.warning { background: #fff6e0; border-left-color: #d69a2d; }
.tablewrap { overflow-x: auto; max-height: 28rem; overflow-y: auto; margin: 0.5rem 0; }
table.data { border-collapse: collapse; font-size: 0.82rem; }
table.data th, table.data td { border: 1px solid #ddd; padding: 0.2rem 0.45rem;
                               text-align: right; white-space: nowrap; }
table.fields th, table.fields td { white-space: normal; overflow-wrap: anywhere;
                                   text-align: left; }
table.data th { background: #f3f3f3; position: sticky; top: 0; }
table.data td:first-child, table.data th:first-child { text-align: left; }
ol.findings li { margin-bottom: 0.5rem; }
.meta { color: #555; font-size: 0.9rem; }
.assumed { color: #8a4b00; font-size: 0.85rem; }
#summary { background: #fafafa; }
a { color: #0b5cad; }
</style>
</head>
<body>
<main>
<h1>{{ title }}</h1>
<p class="meta">{{ subtitle }}</p>
<nav><h2 id="contents">Contents</h2><ol>
{% for section in sections %}<li><a href="#{{ section.slug }}">{{ section.heading }}</a></li>
{% endfor %}</ol></nav>
{% for section in sections %}
<section id="{{ section.slug }}">
<h2>{{ section.heading }}</h2>
<p>{{ section.intro }}</p>
{% for block in section.blocks %}
{% if block.kind == "figure" %}
<figure id="{{ block.anchor }}">
<h3>{{ block.title }}</h3>
<img src="data:image/svg+xml;base64,{{ block.image }}" alt="{{ block.title }}">
<figcaption>{{ block.caption }} Based on {{ block.games }} games. {{ block.significance }}
<span class="files">Files: <a href="figures/{{ block.slug }}.png">PNG</a>,
<a href="figures/{{ block.slug }}.svg">SVG</a>.</span></figcaption>
</figure>
{% elif block.kind == "table" %}
{% if block.collapsed %}<details><summary>{{ block.title }}
(<a href="tables/{{ block.slug }}.csv">CSV</a>)</summary>{% else %}
<h3>{{ block.title }} <small>(<a href="tables/{{ block.slug }}.csv">CSV</a>)</small></h3>
{% endif %}
<div class="tablewrap">{{ block.html }}</div>
{% if block.collapsed %}</details>{% endif %}
{% elif block.kind == "findings" %}
{% if block.groups %}{% for group in block.groups %}
<h3>{{ group.title }}</h3><ol class="findings">
{% for item in group.entries %}<li>{{ item.claim }}{% if item.assumed %}
<span class="assumed">{{ item.assumed }}</span>{% endif %} <em>({{ item.detail }})</em>
{% if item.also %}<br><small>Also: {{ item.also }}</small>{% endif %}
{% if item.causal_test %}<br><small>An association; tested by design with
<code>{{ item.causal_test }}</code></small>{% elif item.no_test %}<br><small>An association;
{{ item.no_test }}</small>{% endif %}
{% if item.recheck %}<br><small>Recheck: {{ item.recheck }}</small>{% endif %}
<a href="#{{ item.figure }}">see figure</a></li>
{% endfor %}</ol>{% endfor %}{% else %}<p class="note">{{ block.empty }}</p>{% endif %}
{% elif block.kind == "points" %}
<h3>{{ block.title }}</h3>
{% if block.points %}<ul class="points">
{% for item in block.points %}<li>{{ item.text }}{% if item.link %}
<a href="#{{ item.link }}">see</a>{% endif %}</li>
{% endfor %}</ul>{% else %}<p class="note">{{ block.empty }}</p>{% endif %}
{% else %}
<p class="note{% if block.warning %} warning{% endif %}">{{ block.text }}</p>
{% endif %}
{% endfor %}
</section>
{% endfor %}
</main>
</body>
</html>
"""


def _formatter(spec: str) -> Callable[[object], str]:
    return lambda v: "–" if v is None or (isinstance(v, float) and math.isnan(v)) \
        else _unsigned_zero(spec.format(v), spec)


def _unsigned_zero(text: str, spec: str) -> str:
    """A value that rounds to zero is shown as a plain zero: "-0%" (a rate a hair under the
    fair share) or "+0.0" reads as a direction the number does not have."""
    try:
        zero = spec.format(0.0)
    except (ValueError, TypeError):
        return text  # not a number format
    return zero.lstrip("+") if text.lstrip("+-") == zero.lstrip("+-") else text


def _number(value: float) -> str:
    """Unformatted float columns: three significant digits, but never exponents for counts."""
    if math.isnan(value):
        return "–"
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.3g}"


def table_html(table: Table) -> str:
    """The table as HTML: numbers right-aligned and kept on one line (the page's default), text
    columns left-aligned and wrapping at spaces, by a rule scoped to this table's id. A
    transposed table is shown field by field, every cell wrapping."""
    frame = table.data
    formatters = {c: _formatter(f) for c, f in table.formats.items() if c in frame.columns}
    floats: dict[str, Callable[[Any], str]] = {c: _number for c in frame.columns
              if c not in formatters and pd.api.types.is_float_dtype(frame[c])}
    anchor = f"table-{table.slug}"
    if table.transposed:
        shown = pd.DataFrame({c: frame[c].map({**floats, **formatters}.get(c, _text))
                              for c in frame.columns})
        shown = shown.set_index(frame.columns[0]).T.rename_axis(index=None, columns=None)
        # the field names as the first column, headed by the key's name, which may also be
        # one of the records' values (a run directory named "run")
        shown.insert(0, frame.columns[0], shown.index, allow_duplicates=True)
        return shown.to_html(index=False, classes="data fields", border=0, table_id=anchor)
    html = frame.to_html(index=False, classes="data", border=0, na_rep="–", table_id=anchor,
                         formatters={**floats, **formatters})
    text = [i for i, column in enumerate(frame.columns, start=1)
            if not pd.api.types.is_numeric_dtype(frame[column])]
    if not text:
        return html
    cells = ", ".join(f"#{anchor} td:nth-child({i}), #{anchor} th:nth-child({i})" for i in text)
    wrap = ", ".join(f"#{anchor} td:nth-child({i})" for i in text)
    return (f"<style>{cells} {{ text-align: left; }} {wrap} {{ white-space: normal; "
            f"overflow-wrap: break-word; }}</style>\n{html}")


def _text(value: object) -> str:
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) \
        else str(value)


def _block(block: Block, images: dict[str, bytes]) -> dict[str, Any]:
    if isinstance(block, Figure):
        return {"kind": "figure", "anchor": block.anchor, "slug": block.slug,
                "title": block.title, "caption": block.caption, "games": block.games,
                "significance": significance_sentence(block),
                "image": base64.b64encode(images[block.slug]).decode("ascii")}
    if isinstance(block, Table):
        return {"kind": "table", "slug": block.slug, "title": block.title,
                "collapsed": block.collapsed, "html": table_html(block)}
    if isinstance(block, FindingList):
        groups = []
        for group in GROUPS:
            entries = [_finding(f) for f in block.items if f.group == group]
            if entries:
                groups.append({"title": group[0].upper() + group[1:], "entries": entries})
        return {"kind": "findings", "empty": block.empty, "groups": groups}
    if isinstance(block, Points):
        return {"kind": "points", "title": block.title, "empty": block.empty,
                "points": [{"text": p.text, "link": p.link} for p in block.items]}
    return {"kind": "note", "text": block.text, "warning": block.warning}


def _finding(finding: Finding) -> dict:
    lead = finding.lead
    return {"claim": lead.claim, "figure": lead.figure, "detail": finding_detail(lead),
            "assumed": reasons(lead.assumed) if lead.assumed else "",
            "also": "; ".join(c.claim for c in finding.also),
            "causal_test": lead.causal_test, "no_test": lead.no_test,
            "recheck": finding.recheck}


def render(title: str, subtitle: str, sections: list[Section],
           images: dict[str, bytes]) -> str:
    """The page: a table of contents, then every section's blocks in order."""
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True)
    page: list[dict[str, Any]] = [{"slug": s.slug, "heading": s.heading, "intro": s.intro,
             "blocks": [_block(b, images) for b in s.blocks]} for s in sections]
    # Table HTML is produced by pandas with its cells escaped; mark it safe for the template.
    for section in page:
        for block in section["blocks"]:
            if block["kind"] == "table":
                block["html"] = markupsafe.Markup(block["html"])
    return env.from_string(TEMPLATE).render(title=title, subtitle=subtitle, sections=page)
