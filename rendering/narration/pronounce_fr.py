"""From a French caption to what a French teacher would say aloud: the French pronunciation table, applied in order.

The French voice (espeak-ng's fr, see espeak.py) reads French text and French numbers well ("0,73" is "zéro virgule
soixante-treize", "4096" is "quatre mille quatre-vingt-seize"), so numbers keep their decimal comma and are left to
it. What it cannot read is the math: it is silent on "=", "√", "→" and "<", says "minus" and "approximately" in
English for "−" and "≈", switches to a Greek voice for "α", spells "ᵀ" out by its Unicode name, and reads "4 096"
(a narrow no-break space between digit groups, as the French locale writes it) as "quatre zéro quatre-vingt-seize".
So `spoken()` rewrites the math into the words a French teacher says: "QKᵀ / √d_k" is "Q K transposée divisé par
racine de d k", "α_i" is "alpha i", "x₃" is "x 3", "4 × 4" is "4 par 4"; softmax stays softmax.

The slash, "×" and the letter ranges follow the English table's rules (see pronounce.py): " / " between numbers is a
list, "Q/K/V" a list, "clé/valeur" a pair, any other "/" a division. Code identifiers keep their letters ("W_q" is
"W Q", "s_decoder" is "s décodeur"). The example's own English tokens ("I love coffee") get French-voice respellings
where espeak-ng's fr voice misreads them ("I" would be the letter "i"), as the English table respells the French
words of the example.
"""

from __future__ import annotations

import re

from .pronounce import _OPERAND, _SUB_RUN, Replacement, _slash_list, _subscript_run

GREEK = {
    "α": "alpha", "β": "bêta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ζ": "zêta", "η": "êta",
    "θ": "têta", "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "ksi", "π": "pi",
    "ρ": "rhô", "σ": "sigma", "ς": "sigma", "τ": "tau", "υ": "upsilon", "φ": "phi", "χ": "khi", "ψ": "psi",
    "ω": "oméga", "Γ": "gamma majuscule", "Δ": "delta", "Θ": "têta", "Λ": "lambda", "Π": "pi", "Φ": "phi",
    "Ψ": "psi", "Ω": "oméga",
}
#: Words of code identifiers' subscripts said in French: s_decoder is "s décodeur".
SUBSCRIPT_WORDS = {"decoder": "décodeur", "encoder": "encodeur", "model": "modèle"}
#: The example's English tokens as the fr voice should say them (it reads "I" as the letter i, "dry" as "dri").
ENGLISH_TOKENS = {"I": "aïe", "love": "leuve", "rain": "raine", "softens": "sofeunz", "dry": "draï", "soil": "soïle",
                  "dropout": "drope-aoute", "Dropout": "drope-aoute"}


def _subscript(match: re.Match) -> str:
    """'_1' → ' 1', '_ij' → ' i j', '_decoder' → ' décodeur', '_Q' → ' Q'."""
    sub = match.group(1)
    if len(sub) == 2 and sub.isalpha() and sub.islower():
        return f" {sub[0]} {sub[1]}"
    return f" {SUBSCRIPT_WORDS.get(sub, sub)}"


# THE French pronunciation table: (pattern, replacement, why), applied top to bottom. Order matters where noted.
TABLE: tuple[tuple[str, Replacement, str], ...] = (
    # typography (before the quotes and spaces go: a digit group's narrow no-break space is not a pause)
    (r"(?<![\d,])\d{1,3}(?:[\u202f\u00a0]\d{3})+(?!\d)", lambda m: re.sub(r"\D", "", m.group(0)),
     "a number with thousands separators: 4 096 (narrow no-break space) is read as 4096"),
    (r"(?<=\d)\.(?=\d)", ",", "a decimal point left by code or an English format: read 'virgule', never 'point'"),
    (r"[“”„\"«»]", "", "quotes are not read"),
    (r"[‘’]", "'", "typographic apostrophe"),
    (r"[\u00a0\u202f]", " ", "a no-break space (before : ; ? ! and inside « ») is a space"),
    (r"\.\.\.", "…", "one ellipsis form"),
    (r"(?<=\S) … (?=\S)", " à ", "a range: h_1 … h_T is 'h 1 à h T'"),
    (r"^\s*…\s*", "", "a caption that continues the previous one"),
    (r"…\s*$", ".", "a caption that trails off ends there"),
    (r"…", ", ", "an ellipsis inside a sentence is a pause"),
    (r"—", ", ", "an em dash is a pause"),
    # abbreviations and words the voice misreads
    (r"\bp\. ?ex\.", "par exemple", "abbreviation"),
    (r"\bc\.-à-d\.", "c'est-à-dire", "abbreviation"),
    (r"\betc\.", "et cetera", "abbreviation"),
    (r"\bvs\b\.?", "contre", "abbreviation"),
    (r"<(\w+)>", r"\1", "a marker token such as <start>"),
    (r"(?i)(?<![\w'])(auto|self)-attn(?![\w'])", r"\1-attention", "abbreviation"),
    (r"(?<![\w'])(" + "|".join(map(re.escape, ENGLISH_TOKENS)) + r")(?![\w'])",
     lambda m: ENGLISH_TOKENS[m.group(1)], "the example's English tokens, respelt for the French voice"),
    (r"(?<=[a-z])(?=[A-Z][a-z])", " ", "CamelCase names: SelfAttention is 'Self Attention'"),
    (r"(?<![\w'])([A-Za-z])–([A-Za-z])(?![\w'])", r"\1 à \2", "a range of letters: étapes A–C"),
    # a parenthesis right after an operator groups a formula's operand: "q = (0,90 ; 0,10)", "1/(1 − p)" (a
    # parenthesis elsewhere is a pause, see below; French "plus", "fois", "par" are ordinary words too, so the pause
    # cannot be taken out after the operator became a word)
    (r"([=×+−·/≈])\s*\(([^()]*)\)", r"\1 \2", "a formula's operand in parentheses is no pause"),
    # the ambiguous slash, before minus signs are rewritten
    (r"(?<=\d) / (?=[-−]?\d)", ", ", "a list of numbers: 0,28 / 0,19 / 0,52"),
    (r"(?<![\w/])\w+(?:/\w+){2,}(?![\w/])", _slash_list, "a list of names: Q/K/V"),
    (r"(?<![\w/])([^\W\d_]{2,})/([^\W\d_]{2,})(?![\w/])", r"\1-\2", "a pair of words: clé/valeur"),
    (r"\s*/\s*", " divisé par ", "a division in a formula"),
    # formula structure: transposes, powers, roots, functions (before subscripts and parentheses)
    (r"(?<![\w'])([A-Z])([A-Z])(?=ᵀ|\^\{?T)", r"\1 \2", "a product of two matrices: QKᵀ is 'Q K transposée'"),
    (r"(\w)\s*(?:ᵀ|\^\{T\}|\^T(?!\w))", r"\1 transposée", "Kᵀ, K^T"),
    (r"\^\(h\)", " de la tête h", "W_Q^(h): head h's slice"),
    (r"(?:²|\^2(?!\d))", " au carré", "a square"),
    (r"\^\(?(\w+)\)?", r" puissance \1", "another power"),
    (r"\bsqrt\(([^()]*)\)", r"racine de \1", "sqrt(d_k)"),
    (r"√\(([^()]*)\)", r"racine de \1", "√(d_k)"),
    (r"√\s*(" + _OPERAND + ")", r"racine de \1", "√d_k, √dₖ"),
    (r"\bexp\(([^()]*)\)", r"exponentielle de \1", "exp(−∞)"),
    (r"\bmax\s*\|([^|]+)\|", r"le maximum de la valeur absolue de \1", "max |empilé − découpé|"),
    (r"\|([^|]+)\|", r"la valeur absolue de \1", "|a − b|"),
    (r"\[(\w+);\s*([^\]]+)\]", r"\1 et \2", "a concatenation [q; h_i]"),
    (r"(\w)\[([^\]]+)\]", r"\1 indice \2", "an index x[t-1]"),
    # subscripts: x_3, h_1, W_Q, d_k, ω_ij, α_(t,i), x₃, α₃ⱼ
    (r"_\(([^)]*)\)", lambda m: " " + m.group(1).replace(",", " "), "a subscript tuple α_(t,i)"),
    (r"_\{([^}]*)\}", r" \1", "a braced subscript"),
    (r"(?<![\w'])([A-Z])_([a-z])(?![\w'])", lambda m: f"{m.group(1)} {m.group(2).upper()}",
     "a matrix's role letter: W_q and W_Q are both 'W Q'"),
    (r"(?<=\w)_([A-Za-z0-9]+)", _subscript, "a subscript"),
    (_SUB_RUN, _subscript_run, "Unicode subscripts"),
    (r"(\S)\u0303", r"\1 tilde", "a tilde accent: ω̃ is 'oméga tilde'"),
    # Greek and operators (the voice is silent on = < → and reads − ≈ ≠ in English)
    (r"[Σ∑]\s*", "la somme de ", "a sum"),
    ("[" + "".join(GREEK) + "]", lambda m: f" {GREEK[m.group(0)]} ", "a Greek letter (not the Greek voice)"),
    (r"<=|≤", " inférieur ou égal à ", "comparison"),
    (r">=|≥", " supérieur ou égal à ", "comparison"),
    (r"!=|≠", " différent de ", "comparison"),
    (r"≈", " environ ", "approximately"),
    (r"[→⟶]|->", " vers ", "an arrow"),
    (r"⇒|=>", " donne ", "an implication arrow"),
    (r"=", " égale ", "equality"),
    (r"<", " inférieur à ", "comparison"),
    (r">", " supérieur à ", "comparison"),
    (r"(?<=\d)\s*×\s*(?=\d)", " par ", "a size: 4 × 4 is 'quatre par quatre'"),
    (r"×", " fois ", "a product"),
    (r"[·⋅∙]", " scalaire ", "a dot product: q · h_i is 'q scalaire h i'"),
    (r"±", " plus ou moins ", "plus or minus"),
    (r"✓", " coche ", "a ✓ mark (an allowed cell)"),
    (r"✗", " croix ", "a ✗ mark (a masked cell)"),
    (r"\+", " plus ", "a sum"),
    (r"%", " pour cent", "a percentage"),
    (r"∞|\binf\b", " l'infini ", "−∞, -inf"),
    (r"−", " moins ", "the minus sign (the voice says 'minus')"),
    (r"(?:^|(?<=[\s(\[=,:;]))-(?=\s*(?:\d|l'infini))", "moins ",
     "a negative number: -0,28 (the French locale's minus)"),
    (r"(?<![\w'])([A-Za-z])-(?=\d)", r"\1 moins ", "an offset: t-1"),
    (r"(?<=\d)–(?=\d)", " à ", "a range of numbers: 0–9"),
    (r"–", "-", "an en dash joining words"),
    # parentheses: a function's argument, else a parenthetical spoken between pauses
    (r"(?<=[A-Za-z])\(([^()]*)\)", r" de \1,", "a function: score(q_t, h_i) is 'score de q t, h i'"),
    (r"[()\[\]{}]", ", ", "a parenthesis is a pause"),
    # tidy the pauses left by removed symbols (a decimal comma has no space after it, a pause always has one)
    (r"\s+", " ", "one space"),
    (r" (?=[,.;:!?])", "", "no space before punctuation"),
    (r",(?:\s*,)+(?!\d)", ",", "one pause at a time"),
    (r",\s*(?=[.;:!?])", "", "a pause before a stop is the stop"),
    (r"([;:])\s*,\s*", r"\1 ", "a pause after a stop is the stop"),
    (r"^[\s,]+|[\s,]+$", "", "no pause at the ends"),
)

_COMPILED = tuple((re.compile(pattern), replacement) for pattern, replacement, _why in TABLE)


def spoken(text: str) -> str:
    """What the French voice reads for a caption: 'ω = Q Kᵀ / √d_k' → 'oméga égale Q K transposée divisé par racine
    de d k'. Plain French passes through unchanged (softmax stays softmax, 0,73 stays 0,73)."""
    for pattern, replacement in _COMPILED:
        text = pattern.sub(replacement, text)
    return text
