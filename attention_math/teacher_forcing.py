"""Teacher forcing vs free-running generation, as the post's two step tables (data, not a trained model).

Same model, same English, one wrong first prediction ("Je" instead of "J'aime"). Generating feeds the model's
own output forward, so the error stays in the input history; training scores the error against the reference
but feeds the reference forward.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import toy_data


@dataclass(frozen=True)
class DecoderStep:
    """One row of a step table.

    history: full French input so far, starting with the start token (unknown words as toy_data.UNKNOWN_WORD).
    given: what the post prints after "s +": the start token at step 1, then the French words, with words the
        post does not know shown as toy_data.ELLIPSIS.
    predicted: the output word as the post prints it ("Je", "le", ..., or "???" / "…" when unknown).
    predicted_known: False where the post leaves the prediction open ("???", "…").
    target: the reference word the prediction is scored against (training only; None when generating).
    wrong: True/False when known, None when the post leaves it open.
    fed_forward: the word appended to the history for the next step (None after the last step).
    """

    step: int  # 1-based, as in the post
    history: tuple[str, ...]
    given: tuple[str, ...]
    predicted: str
    predicted_known: bool
    target: str | None
    wrong: bool | None
    fed_forward: str | None


@dataclass(frozen=True)
class TeacherForcingExample:
    """Both tables of the post plus the sentence data they are built from."""

    english: tuple[str, ...]
    reference: tuple[str, ...]  # French reference, ending with the end token
    start_token: str
    end_token: str
    wrong_first: str  # the wrong first prediction ("Je")
    generating: tuple[DecoderStep, ...]  # 3 steps, as in the post
    training: tuple[DecoderStep, ...]  # one step per reference word (4)
    divergence_step: int  # first step whose given side differs between the modes (2)


def _given(history: tuple[str, ...]) -> tuple[str, ...]:
    words = history[1:]  # drop the start token
    if not words:
        return history[:1]
    shown: list[str] = []
    for w in words:
        w = toy_data.ELLIPSIS if w == toy_data.UNKNOWN_WORD else w
        if not (w == toy_data.ELLIPSIS and shown and shown[-1] == toy_data.ELLIPSIS):
            shown.append(w)
    return tuple(shown)


def generating_steps(reference: tuple[str, ...], wrong_first: str, start: str, n_steps: int = 3) -> tuple[DecoderStep, ...]:
    """Free-running, as the post's first table: step 1 predicts ``wrong_first``, step 2 "???", later "…";
    each prediction (right or wrong) is fed forward, so the error stays in the history."""
    steps = []
    history: tuple[str, ...] = (start,)
    for t in range(1, n_steps + 1):
        if t == 1:
            predicted, known, wrong = wrong_first, True, wrong_first != reference[0]
        else:
            predicted, known, wrong = (toy_data.UNKNOWN_WORD if t == 2 else toy_data.ELLIPSIS), False, None
        fed = (predicted if known else toy_data.UNKNOWN_WORD) if t < n_steps else None
        steps.append(DecoderStep(t, history, _given(history), predicted, known, None, wrong, fed))
        if fed is not None:
            history = history + (fed,)
    return tuple(steps)


def training_steps(reference: tuple[str, ...], wrong_first: str, start: str) -> tuple[DecoderStep, ...]:
    """Teacher forcing: step 1 predicts ``wrong_first`` (scored vs the reference), later steps predict the
    reference (as in the post); the reference word, never the prediction, is fed forward."""
    steps = []
    history: tuple[str, ...] = (start,)
    for t, target in enumerate(reference, start=1):
        predicted = wrong_first if t == 1 else target
        fed = target if t < len(reference) else None
        steps.append(DecoderStep(t, history, _given(history), predicted, True, target, predicted != target, fed))
        if fed is not None:
            history = history + (fed,)
    return tuple(steps)


def teacher_forcing_example(english: tuple[str, ...] = toy_data.COFFEE_TOKENS,
                            french: tuple[str, ...] = toy_data.FRENCH_REFERENCE[:-1],
                            wrong_first: str = toy_data.WRONG_FIRST_WORD) -> TeacherForcingExample:
    """Both tables for a sentence pair (default: the post's I love coffee -> J'aime le café, first prediction "Je").

    `french` is the reference without the end token; `wrong_first` must differ from its first word.
    """
    if not french or wrong_first == french[0]:
        raise ValueError(f"wrong_first {wrong_first!r} must differ from the first French word of {french!r}")
    ref = tuple(french) + (toy_data.END_TOKEN,)
    start = toy_data.START_TOKEN
    gen = generating_steps(ref, wrong_first, start)
    train = training_steps(ref, wrong_first, start)
    divergence = next(g.step for g, t in zip(gen, train) if g.given != t.given)
    return TeacherForcingExample(
        english=tuple(english),
        reference=ref,
        start_token=start,
        end_token=toy_data.END_TOKEN,
        wrong_first=wrong_first,
        generating=gen,
        training=train,
        divergence_step=divergence,
    )
