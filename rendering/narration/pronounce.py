"""From a screen caption to what a teacher would say aloud: one pronunciation table, applied in order.

The voice (espeak's phonemiser inside piper) reads plain English well but guesses at formulas: it would say
"slash", skip "ᵀ", read "0.28" as a date-like number and "J'aime" as "jay-aim". So `spoken()` rewrites a caption
into plain words first: symbols and Greek letters become names, subscripts become spoken indices (x₃ → "x three"),
numbers become words (no dependency: `number_words`), French words get English-voice respellings.

The one ambiguous symbol is "/":
- " / " (spaces both sides) between two plain numbers is a LIST separator, read as ", ":
  "0.28 / 0.19 / 0.52" → "zero point two eight, zero point one nine, zero point five two";
- three or more items joined by "/" are a list too: "Q/K/V" → "Q, K, V";
- two words of two or more letters are a pair: "key/value" → "key-value" (read "key value");
- every other "/" is in a formula and reads "divided by": "Q Kᵀ / √d_k", "1/(1 − p)".
Likewise "×" between two numbers is a size ("4 × 4" → "four by four"), elsewhere "times"; a capital "A" is the
letter ("eh") unless a lowercase word follows it, when it is the article ("A real model").

`sentences()` splits a caption (as written) into the pieces synthesised one at a time; it never splits inside a
decimal, after an abbreviation (e.g., vs.) or after a leading list number ("1. Soft attention: ...").
"""

from __future__ import annotations

import re
from typing import Callable

# --- numbers -------------------------------------------------------------------------------------------------------
_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
         "seventeen eighteen nineteen").split()
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_SCALES = ((10**12, "trillion"), (10**9, "billion"), (10**6, "million"), (10**3, "thousand"))


def digit_words(digits: str) -> str:
    """'05' → 'zero five': how the digits after a decimal point are read."""
    return " ".join(_ONES[int(d)] for d in digits)


def number_words(n: int) -> str:
    """An integer in US English words: 64 → 'sixty-four', 512 → 'five hundred twelve'."""
    if n < 0:
        return "minus " + number_words(-n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return f"{_ONES[hundreds]} hundred" + (f" {number_words(rest)}" if rest else "")
    if n >= 10**15:
        return digit_words(str(n))
    for scale, name in _SCALES:
        if n >= scale:
            count, rest = divmod(n, scale)
            return f"{number_words(count)} {name}" + (f" {number_words(rest)}" if rest else "")
    raise AssertionError("unreachable")


def _integer(match: re.Match) -> str:
    text = match.group(0).replace(",", "")
    if len(text) > 1 and text.startswith("0"):  # "007": an identifier, read digit by digit
        return digit_words(text)
    return number_words(int(text))


def _decimal(match: re.Match) -> str:
    whole, fraction = match.group(1), match.group(2)
    return f"{number_words(int(whole))} point {digit_words(fraction)}"


# --- symbols -------------------------------------------------------------------------------------------------------
GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ζ": "zeta", "η": "eta", "θ": "theta",
    "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi", "π": "pi", "ρ": "rho",
    "σ": "sigma", "ς": "sigma", "τ": "tau", "υ": "upsilon", "φ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega",
    "Γ": "capital gamma", "Δ": "delta", "Θ": "theta", "Λ": "lambda", "Π": "pi", "Φ": "phi", "Ψ": "psi",
    "Ω": "omega",
}
_SUBSCRIPTS = {**{chr(ord("₀") + d): str(d) for d in range(10)},
               "ₐ": "a", "ₑ": "e", "ₒ": "o", "ₓ": "x", "ₕ": "h", "ₖ": "k", "ₗ": "l", "ₘ": "m", "ₙ": "n",
               "ₚ": "p", "ₛ": "s", "ₜ": "t", "ᵢ": "i", "ⱼ": "j", "ᵣ": "r", "ᵤ": "u", "ᵥ": "v"}
_SUB_RUN = "[" + "".join(_SUBSCRIPTS) + "]+"
# an identifier a root or subscript applies to: d_k, dₖ, d_{model}, x
_OPERAND = r"\w+(?:_\{[^}]*\}|_\w+|" + _SUB_RUN + r")?"


def _subscript_run(match: re.Match) -> str:
    """'₃ⱼ' → ' 3 j': digits stay one number (₁₂ → 12), letters are separate indices."""
    words, digits = [], ""
    for char in match.group(0):
        value = _SUBSCRIPTS[char]
        if value.isdigit():
            digits += value
            continue
        if digits:
            words.append(digits)
            digits = ""
        words.append(value)
    if digits:
        words.append(digits)
    return " " + " ".join(words)


def _subscript(match: re.Match) -> str:
    """'_1' → ' 1', '_ij' → ' i j' (two index letters), '_decoder' → ' decoder', '_Q' → ' Q'."""
    sub = match.group(1)
    if len(sub) == 2 and sub.isalpha() and sub.islower():
        return f" {sub[0]} {sub[1]}"
    return f" {sub}"


def _slash_list(match: re.Match) -> str:
    return ", ".join(match.group(0).split("/"))


LETTER_A = "eh"  # espeak reads a lone "A" as the article "uh"; "eh" gets the letter's name


def _letter(char: str) -> str:
    return LETTER_A if char == "A" else char


def _word(word: str) -> str:
    """A whole word, apostrophes included (so J'aime matches but J'aimerais does not)."""
    return r"(?<![\w'])" + re.escape(word) + r"(?![\w'])"


Replacement = str | Callable[[re.Match], str]

# THE pronunciation table: (pattern, replacement, why), applied top to bottom. Order matters where noted.
TABLE: tuple[tuple[str, Replacement, str], ...] = (
    # typography
    (r"[“”„\"«»]", "", "quotes are not read"),
    (r"[‘’]", "'", "typographic apostrophe"),
    (r"\.\.\.", "…", "one ellipsis form"),
    (r"(?<=\S) … (?=\S)", " to ", "a range: h_1 … h_3 is 'h one to h three'"),
    (r"^\s*…\s*", "", "a caption that continues the previous one"),
    (r"…\s*$", ".", "a caption that trails off ends there"),
    (r"…", ", ", "an ellipsis inside a sentence is a pause"),
    (r"—", ", ", "an em dash is a pause"),
    # abbreviations and words the voice misreads
    (r"\be\.g\.", "for example", "abbreviation"),
    (r"\bi\.e\.", "that is", "abbreviation"),
    (r"\bvs\b\.?", "versus", "abbreviation"),
    (r"\betc\.", "et cetera", "abbreviation"),
    (r"<(\w+)>", r"\1", "a marker token such as <start>"),
    (_word("self-attn"), "self-attention", "abbreviation"),
    (_word("params"), "parameters", "abbreviation"),
    (_word("GRU"), "G R U", "an initialism espeak reads as the word 'grew'"),
    (_word("J'aime"), "zhem", "French: espeak says 'jay-aim'"),
    (_word("Je"), "zhuh", "French: espeak says 'jee'"),
    (_word("veux"), "vuh", "French"),
    (_word("boit"), "boo-ah", "French: espeak says 'boyt'"),
    (_word("l'eau"), "loh", "French: espeak spells the l"),
    (_word("froide"), "froo-ahd", "French: espeak says 'froid'"),
    (r"(?<=[a-z])(?=[A-Z][a-z])", " ", "CamelCase names: SelfAttention is 'Self Attention'"),
    (r"(?<![\w'])([A-Za-z])–([A-Za-z])(?![\w'])", lambda m: f"{_letter(m.group(1))} to {_letter(m.group(2))}",
     "a range of letters: Steps A–C (before the A rule: 'A to' would read as the article)"),
    (r"(?<![\w'])A(?![\w'])(?! [a-z]{2})", LETTER_A, "the letter A (matrix A, Z = A X), not the article"),
    # the ambiguous slash, before numbers and minus signs are rewritten (see the module docstring)
    (r"(?<=\d) / (?=[-−]?\d)", ", ", "a list of numbers: 0.28 / 0.19 / 0.52"),
    (r"(?<![\w/])\w+(?:/\w+){2,}(?![\w/])", _slash_list, "a list of names: Q/K/V"),
    (r"(?<![\w/])([A-Za-z]{2,})/([A-Za-z]{2,})(?![\w/])", r"\1-\2", "a pair of words: key/value"),
    (r"\s*/\s*", " divided by ", "a division in a formula"),
    # formula structure: transposes, powers, roots, functions (before subscripts and parentheses)
    (r"(?<![\w'])([A-Z])([A-Z])(?=ᵀ|\^\{?T)", r"\1 \2", "a product of two matrices: QKᵀ is 'Q K transpose'"),
    (r"(\w)\s*(?:ᵀ|\^\{T\}|\^T(?!\w))", r"\1 transpose", "Kᵀ, K^T"),
    (r"\^\(h\)", " for head h", "W_Q^(h): head h's slice"),
    (r"(?:²|\^2(?!\d))", " squared", "a square"),
    (r"\^\(?(\w+)\)?", r" to the \1", "another power"),
    (r"\bsqrt\(([^()]*)\)", r"the square root of \1", "sqrt(d_k)"),
    (r"√\(([^()]*)\)", r"the square root of \1", "√(d_k)"),
    (r"√\s*(" + _OPERAND + ")", r"the square root of \1", "√d_k, √dₖ"),
    (r"\b([Tt]he) the square root", r"\1 square root", "'Why the √d_k?'"),
    (r"\bexp\(([^()]*)\)", r"e to the \1", "exp(−∞)"),
    (r"\bmax\s*\|([^|]+)\|", r"the largest absolute value of \1", "max |stacked − split|"),
    (r"\|([^|]+)\|", r"the absolute value of \1", "|a − b|"),
    (r"\[(\w+);\s*([^\]]+)\]", r"\1 and \2", "a concatenation [q; h_i]"),
    (r"(\w)\[([^\]]+)\]", r"\1 at \2", "an index x[t-1]"),
    # subscripts: x_3, h_1, W_Q, d_k, ω_ij, α_(t,i), x₃, α₃ⱼ
    (r"_\(([^)]*)\)", lambda m: " " + m.group(1).replace(",", " "), "a subscript tuple α_(t,i)"),
    (r"_\{([^}]*)\}", r" \1", "a braced subscript"),
    (r"(?<![\w'])([A-Z])_([a-z])(?![\w'])", lambda m: f"{m.group(1)} {m.group(2).upper()}",
     "a matrix's role letter: W_q and W_Q are both 'W Q' (one spelling, one cache entry)"),
    (r"(?<=\w)_([A-Za-z0-9]+)", _subscript, "a subscript"),
    (_SUB_RUN, _subscript_run, "Unicode subscripts"),
    (r"(\S)\u0303", r"\1 tilde", "a tilde accent: ω̃ is 'omega tilde'"),
    # Greek and operators
    (r"[Σ∑]\s*", "the sum of ", "a sum"),
    ("[" + "".join(GREEK) + "]", lambda m: f" {GREEK[m.group(0)]} ", "a Greek letter"),
    (r"<=|≤", " less than or equal to ", "comparison"),
    (r">=|≥", " greater than or equal to ", "comparison"),
    (r"!=|≠", " not equal to ", "comparison"),
    (r"≈", " about ", "approximately"),
    (r"[→⟶]|->", " to ", "an arrow: 'goes to'"),
    (r"⇒|=>", " gives ", "an implication arrow"),
    (r"=", " equals ", "equality"),
    (r"<", " less than ", "comparison"),
    (r">", " greater than ", "comparison"),
    (r"(?<=\d)\s*×\s*(?=\d)", " by ", "a size: 4 × 4"),
    (r"×", " times ", "a product"),
    (r"[·⋅∙]", " dot ", "a dot product"),
    (r"±", " plus or minus ", "plus or minus"),
    (r"✓", " tick ", "a ✓ mark (an allowed cell)"),
    (r"✗", " cross ", "a ✗ mark (a masked cell)"),
    (r"\+", " plus ", "a sum"),
    (r"%", " percent", "a percentage"),
    (r"∞|\binf\b", " infinity ", "−∞, -inf"),
    (r"−", " minus ", "the minus sign"),
    (r"(?:^|(?<=[\s(\[=,:;]))-(?=\s*(?:\d|infinity))", "minus ", "a negative number: -1.3, -inf"),
    (r"(?<![\w'])([A-Za-z])-(?=\d)", r"\1 minus ", "an offset: t-1"),
    (r"(?<=\d)–(?=\d)", " to ", "a range of numbers: 0–9"),
    (r"–", "-", "an en dash joining words: encoder–decoder"),
    # parentheses: a function's argument, else a parenthetical spoken between pauses
    (r"(?<=[A-Za-z])\(", " of (", "a function: score(q_t, h_i)"),
    (r"[()\[\]{}]", ", ", "a parenthesis is a pause"),
    # numbers, last: every symbol that shapes them is already words
    (r"(?<![\d.])\d{1,3}(?:,\d{3})+(?![\d,])", _integer, "a number with thousands separators: 1,000"),
    (r"(\d+)\.(\d+)", _decimal, "a decimal, digit by digit after the point: 0.28"),
    (r"\d+", _integer, "an integer: 64 is 'sixty-four'"),
    # tidy the pauses left by removed symbols
    (r"\s+", " ", "one space"),
    (r" (?=[,.;:!?])", "", "no space before punctuation"),
    (r",(?:\s*,)+", ",", "one pause at a time"),
    (r",\s*(?=[.;:!?])", "", "a pause before a stop is the stop"),
    (r"([;:])\s*,\s*", r"\1 ", "a pause after a stop is the stop"),
    (r"\b(equals|of|by|times|plus|minus|about|gives|the)\s*,\s*", r"\1 ", "no pause inside a formula"),
    (r"^[\s,]+|[\s,]+$", "", "no pause at the ends"),
)

_COMPILED = tuple((re.compile(pattern), replacement) for pattern, replacement, _why in TABLE)


def spoken(text: str) -> str:
    """What the voice reads for a caption: 'ω = Q Kᵀ / √d_k' → 'omega equals Q K transpose divided by the square
    root of d k'. Plain English passes through unchanged (softmax stays softmax)."""
    for pattern, replacement in _COMPILED:
        text = pattern.sub(replacement, text)
    return text


# --- sentences -----------------------------------------------------------------------------------------------------
ABBREVIATIONS = ("e.g.", "i.e.", "vs.", "etc.", "cf.", "approx.", "Fig.", "Eq.", "Mr.", "Mrs.", "Dr.", "No.")
_END = re.compile(r"[.!?]+[”\"’)\]]*\s+(?=[“\"‘(\[]?[A-Z0-9À-Ý])")
_LEADING_NUMBER = re.compile(r"^\s*\d+\.$")


def sentences(text: str) -> list[str]:
    """The caption as written, cut after each sentence's final . ! or ? when the next one starts with a capital,
    a digit or an opening quote. Never inside "0.28" (no space follows the point), after an abbreviation, or
    after a leading list number ("1. Soft attention")."""
    pieces, start = [], 0
    for match in _END.finditer(text):
        head = text[start:match.end()].rstrip()
        if head.endswith(ABBREVIATIONS) or _LEADING_NUMBER.match(head):
            continue
        pieces.append(head.strip())
        start = match.end()
    pieces.append(text[start:].strip())
    return [piece for piece in pieces if piece]
