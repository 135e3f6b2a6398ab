"""io500.org's list descriptions as safe HTML: their links and basic formatting kept, all else text.

The descriptions are io500.org's own HTML (paragraphs, links to its other lists and to Zenodo,
superscripts). Printing them as they came trusted every tag and attribute of an import; escaping
them all lost their links. No HTML sanitiser is pinned (requirements.in), and the descriptions use
a handful of tags, so this is a strict allow-list over Python's own HTML tokenizer: the tags below
without attributes, and `a` with only an http(s) or site-relative href, given rel="noopener
nofollow" (the target is someone else's page). Every other tag is dropped with its text kept and
escaped; the content of script and style is dropped whole.
"""

from __future__ import annotations

from html import escape
from html.parser import HTMLParser
from urllib.parse import urlsplit

_FORMATTING = frozenset({"p", "br", "sup", "sub", "em", "strong", "b", "i", "ul", "ol", "li", "code"})
_VOID = frozenset({"br"})
_DROPPED_WITH_CONTENT = frozenset({"script", "style", "template", "iframe", "object", "noscript"})


def safe_href(href: str) -> str | None:
    """The link if it is an http(s) URL or a path on this site, else None."""
    href = href.strip()
    if href.startswith("/") and not href.startswith("//") and "\\" not in href:
        return href
    parts = urlsplit(href)
    if parts.scheme.lower() in ("http", "https") and parts.netloc:
        return href
    return None


class _Sanitiser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.open: list[str] = []  # the allowed tags open now, to close what a description left open
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _DROPPED_WITH_CONTENT:
            self.skipping += 1
            return
        if self.skipping:
            return
        if tag in _FORMATTING:
            self.out.append(f"<{tag}>")
            if tag not in _VOID:
                self.open.append(tag)
        elif tag == "a":
            href = next((safe_href(value) for name, value in attrs if name == "href" and value), None)
            if href is None:
                self.open.append("")  # a link to nowhere safe: its text only
            else:
                self.out.append(f'<a href="{escape(href, quote=True)}" rel="noopener nofollow">')
                self.open.append("a")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID and not self.skipping:
            self.out.append(f"<{tag}>")

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROPPED_WITH_CONTENT:
            self.skipping = max(0, self.skipping - 1)
            return
        if self.skipping or tag in _VOID:
            return
        # "" stands for an unsafe link whose text was kept: </a> closes it as well.
        matches = ("a", "") if tag == "a" else (tag,)
        found = next((i for i in range(len(self.open) - 1, -1, -1) if self.open[i] in matches), None)
        if found is None:
            return  # a stray closing tag
        while len(self.open) > found:
            closing = self.open.pop()
            if closing:
                self.out.append(f"</{closing}>")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.out.append(escape(data, quote=False))

    def result(self) -> str:
        self.close()
        return "".join(self.out) + "".join(f"</{tag}>" for tag in reversed(self.open) if tag)


def sanitise_description(html: str) -> str:
    """`html` with only the allowed tags and links, safe to print unescaped."""
    sanitiser = _Sanitiser()
    sanitiser.feed(html)
    return sanitiser.result()
