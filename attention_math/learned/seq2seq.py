"""A small GRU encoder–decoder with dot-product soft attention, laid out like the post explains it.

Encoder: reads English left to right and keeps every hidden state h_i (not just the last one).
Decoder: a GRU over the French so far gives the decoder state s_t; a learned linear map gives the query
q_t = W_q s_t; soft attention scores q_t against every h_i, softmaxes the scores into weights α_t and
forms the context c_t = Σ α_t,i h_i; only then is the next French word predicted from [s_t; c_t].  In
training the decoder is fed the reference French (teacher forcing); when generating it is fed its own
previous word.

The attention itself is the package's ``scaled.attention_steps`` with keys = values = encoder states, i.e.
the post's dot-product score with the √d scale it introduces for Q/K/V (e_i = q_tᵀ h_i / √d). Without the
scale the softmax saturates to one-hot in the first epochs and stops learning which word to look at.
Batches hold sentences of one English length, so no padding mask is needed on the keys.
"""

from __future__ import annotations

import torch
from torch import nn

from ..scaled import attention_steps


class Seq2SeqAttention(nn.Module):
    def __init__(self, source_vocab_size: int, target_vocab_size: int, embed_dim: int, hidden_dim: int):
        super().__init__()
        self.source_embedding = nn.Embedding(source_vocab_size, embed_dim, padding_idx=0)
        self.encoder = nn.GRU(embed_dim, hidden_dim, batch_first=True)
        self.target_embedding = nn.Embedding(target_vocab_size, embed_dim, padding_idx=0)
        self.decoder = nn.GRU(embed_dim, hidden_dim, batch_first=True)
        self.W_q = nn.Linear(hidden_dim, hidden_dim, bias=False)
        self.combine = nn.Linear(2 * hidden_dim, hidden_dim)
        self.readout = nn.Linear(hidden_dim, target_vocab_size)

    def encode(self, source: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Encoder states H (B, Te, H), one per English word, and the summary s = the last state (1, B, H)."""
        states, last = self.encoder(self.source_embedding(source))
        return states, last

    def attend_and_predict(
        self, decoder_states: torch.Tensor, encoder_states: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Query → soft attention over the English states → next-word logits; also returns the weights."""
        query = self.W_q(decoder_states)  # (B, Tf, H)
        attention = attention_steps(query, encoder_states, encoder_states)
        hidden = torch.tanh(self.combine(torch.cat([decoder_states, attention.output], dim=-1)))
        return self.readout(hidden), attention.weights

    def forward(self, source: torch.Tensor, target_in: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Teacher forcing: logits (B, Tf, V) for every reference prefix at once, weights (B, Tf, Te).

        The decoder starts from the encoder summary s, as in the post; attention adds every h_i on top.
        """
        encoder_states, summary = self.encode(source)
        decoder_states, _ = self.decoder(self.target_embedding(target_in), summary)
        return self.attend_and_predict(decoder_states, encoder_states)

    @torch.no_grad()
    def greedy(
        self, source: torch.Tensor, start_id: int, end_id: int, max_len: int
    ) -> tuple[list[int], torch.Tensor]:
        """Generate one sentence (batch of 1) feeding back its own argmax words.

        Returns the emitted ids (without <end>) and the attention rows for those words, (len, Te).
        """
        encoder_states, state = self.encode(source)
        previous = torch.tensor([[start_id]])
        ids: list[int] = []
        rows: list[torch.Tensor] = []
        for _ in range(max_len):
            decoder_state, state = self.decoder(self.target_embedding(previous), state)
            logits, weights = self.attend_and_predict(decoder_state, encoder_states)
            word = int(logits[0, -1].argmax())
            if word == end_id:
                break
            ids.append(word)
            rows.append(weights[0, -1])
            previous = torch.tensor([[word]])
        alignment = torch.stack(rows) if rows else torch.zeros(0, source.shape[1])
        return ids, alignment
