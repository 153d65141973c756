"""The README's and docs' links lead somewhere: every relative link names a
file of the repository, and every ``#anchor`` a heading of its page (as
GitHub makes anchors from headings)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces
    to hyphens."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    out: set[str] = set()
    for m in re.finditer(r"^#{1,6} (.+)$", text, re.M):
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return [t for t in LINK.findall(text) if "://" not in t and not t.startswith("mailto:")]


def test_slug_follows_github() -> None:
    assert slug("The last round: `final_race`") == "the-last-round-final_race"
    assert slug("Where the expert's rounds go") == "where-the-experts-rounds-go"
    assert slug("The coach: `liverpool review`") == "the-coach-liverpool-review"


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading with that anchor in {dest.name}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_links_resolve(page: Path) -> None:
    broken = broken_links(page)
    assert not broken, f"{page.name}: " + "; ".join(broken)


def test_checker_sees_broken_links(tmp_path: Path) -> None:
    (tmp_path / "b.md").write_text("# Other\n", encoding="utf-8")
    page = tmp_path / "a.md"
    page.write_text("# Title\n\nSee [x](#nowhere), [y](#title), [z](b.md#other),\n"
                    "[w](b.md#title), [v](c.md) and [u](https://example.org/#x).\n"
                    "```\n[not a link](#in-code)\n```\n", encoding="utf-8")
    assert broken_links(page) == [
        "#nowhere: no heading with that anchor in a.md",
        "b.md#title: no heading with that anchor in b.md",
        "c.md: no such file",
    ]
