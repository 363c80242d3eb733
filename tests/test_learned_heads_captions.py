"""learned_heads' computed claims: the verdict names the heads the training put on each offset (numbered from 1
on screen), and says so when one head took both."""

from scenes.learned_heads import verdict


def test_two_heads_on_two_offsets_are_named_from_one():
    text = verdict(0, 1)
    assert "head 1 and head 2 did exactly that" in text and "measured, not asserted" in text


def test_one_head_on_both_offsets_is_said_to_break_the_posts_split():
    text = verdict(1, 1)
    assert "one head, head 2, took both offsets" in text and "not the split the post describes" in text
