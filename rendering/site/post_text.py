"""Parse the post's plain text into blocks (headings, paragraphs, lists, tables, code, formulas).

The post was copied out of a web page as plain text: paragraphs are separated by blank lines, list items are
consecutive lines, table cells are tab-separated, code and diagrams keep their indentation, and formulas are
LaTeX (`\\[ ... \\]` on a line of their own, `$ ... $` inline). What the copy lost (which lines are headings and
of what level, which lists are numbered) is restored by a small outline file next to the post, so that nothing
about the structure is guessed.
"""

from __future__ import annotations

import ast
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

POST_DIR = Path(__file__).resolve().parent / "post"
POST_PATH = POST_DIR / "attention-from-scratch.txt"
OUTLINE_PATH = POST_DIR / "attention-from-scratch-outline.txt"  # .txt: packaged like the post (pyproject)
# Translations: the post and its outline with the language before ".txt" (still packaged as *.txt).
FRENCH_POST_PATH = POST_DIR / "attention-from-scratch.fr.txt"
FRENCH_OUTLINE_PATH = POST_DIR / "attention-from-scratch-outline.fr.txt"
POST_PATHS: dict[str, tuple[Path, Path]] = {
    "en": (POST_PATH, OUTLINE_PATH),  # the published original
    "fr": (FRENCH_POST_PATH, FRENCH_OUTLINE_PATH),
}

OUTLINE_KINDS = ("h1", "h2", "h3", "ol", "diagram", "drop")
DIAGRAM_STARTS = ("flowchart ", "sequenceDiagram")  # Mermaid sources, flattened to one line by the copy
_DISPLAY_MATH = re.compile(r"\\\[(.+?)\\\]", re.S)
_CODE_MARKER = re.compile(r"^(import |from \S+ import |class |def |@|#)|[=()\[\]]", re.M)


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    slug: str


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class ListBlock:
    items: tuple[str, ...]
    ordered: bool


@dataclass(frozen=True)
class Table:
    rows: tuple[tuple[str, ...], ...]  # the first row is the header


@dataclass(frozen=True)
class Code:
    text: str  # Python source, verbatim


@dataclass(frozen=True)
class Preformatted:
    text: str  # ASCII pictures and aligned arithmetic: spacing carries meaning


@dataclass(frozen=True)
class DisplayMath:
    latex: str


@dataclass(frozen=True)
class Diagram:
    """A picture the plain-text copy could not keep: Mermaid source, or boxes flattened into lines of text."""

    text: str
    mermaid: bool


Block = Heading | Paragraph | ListBlock | Table | Code | Preformatted | DisplayMath | Diagram


@dataclass(frozen=True)
class Post:
    title: str
    blocks: tuple[Block, ...]  # without the title heading

    def headings(self) -> list[Heading]:
        return [b for b in self.blocks if isinstance(b, Heading)]

    def formulas(self) -> list[tuple[str, bool]]:
        """Every formula as (latex, display), in reading order: what the page must typeset."""
        found: list[tuple[str, bool]] = []
        for block in self.blocks:
            if isinstance(block, DisplayMath):
                found.append((block.latex, True))
            for text in _inline_texts(block):
                found.extend((value, False) for kind, value in inline_parts(text) if kind == "math")
        return found


@dataclass(frozen=True)
class Outline:
    headings: dict[str, int]  # line -> level
    ordered_lists: frozenset[str]  # first lines of numbered lists
    diagrams: frozenset[str]  # first lines of blocks that are a flattened picture, not prose
    dropped: frozenset[str]


def parse_outline(text: str) -> Outline:
    headings: dict[str, int] = {}
    ordered: set[str] = set()
    diagrams: set[str] = set()
    dropped: set[str] = set()
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        kind, _, rest = line.partition(" ")
        if kind not in OUTLINE_KINDS or not rest:
            raise ValueError(f"outline line {number}: {line!r}; expected '<kind> <post line>' "
                             f"with kind one of {', '.join(OUTLINE_KINDS)}")
        if kind.startswith("h"):
            headings[rest] = int(kind[1])
        elif kind == "ol":
            ordered.add(rest)
        elif kind == "diagram":
            diagrams.add(rest)
        else:
            dropped.add(rest)
    return Outline(headings, frozenset(ordered), frozenset(diagrams), frozenset(dropped))


def slugify(text: str) -> str:
    """An id for a heading anchor: lowercase ASCII words joined by '-' (accents dropped: "Étape" -> "etape")."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")
    return slug or "section"


def _chunks(text: str) -> list[list[str]]:
    """Blank-line-separated groups of lines (a line of only spaces counts as blank)."""
    chunks: list[list[str]] = []
    current: list[str] = []
    for line in text.splitlines():
        if line.strip():
            current.append(line.rstrip())
        elif current:
            chunks.append(current)
            current = []
    if current:
        chunks.append(current)
    return chunks


def _is_python(lines: list[str]) -> bool:
    source = "\n".join(lines)
    if not _CODE_MARKER.search(source):
        return False
    try:
        ast.parse(source)
    except SyntaxError:
        return False
    return True


def _is_preformatted(lines: list[str]) -> bool:
    """Indentation or runs of spaces inside a line: the spacing lines things up, so it must be kept."""
    return any(line[:1].isspace() or "  " in line.strip() for line in lines)


def _classify(lines: list[str], outline: Outline) -> list[Block]:
    first = lines[0]
    joined = "\n".join(lines)
    if len(lines) == 1 and first in outline.headings:
        return [Heading(outline.headings[first], first, slugify(first))]
    if first.startswith("\\[") and joined.endswith("\\]"):
        formulas = [m.strip() for m in _DISPLAY_MATH.findall(joined)]
        if _DISPLAY_MATH.sub("", joined).strip():
            raise ValueError(f"text beside a display formula: {joined!r}")
        return [DisplayMath(f) for f in formulas]
    if first.startswith(DIAGRAM_STARTS):
        return [Diagram(joined, mermaid=True)]
    if first in outline.diagrams:
        return [Diagram(joined, mermaid=False)]
    if any("\t" in line for line in lines):
        if not all("\t" in line for line in lines):
            raise ValueError(f"table with a line that has no tab: {joined!r}")
        return [Table(tuple(tuple(cell.strip() for cell in line.split("\t")) for line in lines))]
    if _is_python(lines):
        return [Code(joined)]
    if _is_preformatted(lines):
        return [Preformatted(joined)]
    if len(lines) > 1:
        return [ListBlock(tuple(lines), ordered=first in outline.ordered_lists)]
    return [Paragraph(first)]


def parse_post(text: str, outline: Outline) -> Post:
    """Split the post into blocks; ValueError when the outline names a line the post lacks."""
    lines = [line for line in text.splitlines() if line.strip() not in outline.dropped]
    present = {line.strip() for line in text.splitlines()}
    for wanted in [*outline.headings, *outline.ordered_lists, *outline.diagrams, *outline.dropped]:
        if wanted not in present:
            raise ValueError(f"outline names a line the post does not contain: {wanted!r}")

    blocks: list[Block] = []
    for chunk in _chunks("\n".join(lines)):
        previous = blocks[-1] if blocks else None
        if isinstance(previous, Code) and (chunk[0][:1].isspace() or _is_python(chunk)):
            # A blank line inside a code listing (between methods, after imports) splits it into chunks.
            blocks[-1] = Code(previous.text + "\n\n" + "\n".join(chunk))
            continue
        new = _classify(chunk, outline)
        if (isinstance(previous, Diagram) and not previous.mermaid and len(new) == 1
                and isinstance(new[0], Diagram) and not new[0].mermaid):
            blocks[-1] = Diagram(previous.text + "\n\n" + new[0].text, mermaid=False)  # one picture, two rows
            continue
        blocks.extend(new)

    for wanted in outline.headings:
        if not any(isinstance(b, Heading) and b.text == wanted for b in blocks):
            raise ValueError(f"outline heading is not a line of its own in the post: {wanted!r}")
    for wanted in outline.ordered_lists:
        if not any(isinstance(b, ListBlock) and b.items[0] == wanted for b in blocks):
            raise ValueError(f"outline 'ol' line does not start a list in the post: {wanted!r}")
    for wanted in outline.diagrams:
        if not any(isinstance(b, Diagram) and wanted in b.text.split("\n") for b in blocks):
            raise ValueError(f"outline 'diagram' line does not start a block in the post: {wanted!r}")

    if not blocks or not isinstance(blocks[0], Heading) or blocks[0].level != 1:
        raise ValueError("the post must start with its title, marked 'h1' in the outline")
    _make_slugs_unique(blocks)
    return Post(title=blocks[0].text, blocks=tuple(blocks[1:]))


def _make_slugs_unique(blocks: list[Block]) -> None:
    seen: dict[str, int] = {}
    for i, block in enumerate(blocks):
        if isinstance(block, Heading):
            count = seen.get(block.slug, 0)
            seen[block.slug] = count + 1
            if count:
                blocks[i] = Heading(block.level, block.text, f"{block.slug}-{count + 1}")


def post_paths(language: str = "en") -> tuple[Path, Path]:
    """(post, outline) of the post in this language; ValueError for a language the repository has no post in."""
    try:
        return POST_PATHS[language]
    except KeyError:
        raise ValueError(f"no post in language {language!r}; available: {', '.join(POST_PATHS)}") from None


def load_post(post_path: Path = POST_PATH, outline_path: Path = OUTLINE_PATH) -> Post:
    """The post bundled in the repository (a verbatim copy of the published post), parsed."""
    return parse_post(post_path.read_text(encoding="utf-8"),
                      parse_outline(outline_path.read_text(encoding="utf-8")))


def load_post_in(language: str = "en") -> Post:
    """The post in this language, parsed: load_post_in("en") is load_post(), load_post_in("fr") its translation."""
    return load_post(*post_paths(language))


_INLINE = re.compile(r"\$(?P<math>[^$]+)\$|`(?P<code>[^`]+)`|\[(?P<cite>\d+)\]")


def inline_parts(text: str) -> list[tuple[str, str]]:
    """Split running text into ("text"|"math"|"code"|"cite", value) parts."""
    parts: list[tuple[str, str]] = []
    position = 0
    for match in _INLINE.finditer(text):
        if match.start() > position:
            parts.append(("text", text[position:match.start()]))
        kind = match.lastgroup
        parts.append((kind, match.group(kind).strip() if kind == "math" else match.group(kind)))
        position = match.end()
    if position < len(text):
        parts.append(("text", text[position:]))
    return parts


def _inline_texts(block: Block) -> list[str]:
    """The runs of text in a block that may hold inline math or code (not code listings or pictures)."""
    if isinstance(block, Paragraph):
        return [block.text]
    if isinstance(block, ListBlock):
        return list(block.items)
    if isinstance(block, Table):
        return [cell for row in block.rows for cell in row]
    return []
