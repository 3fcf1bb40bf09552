"""A tiny llama-architecture GGUF model for the real Ollama server in the runner's tests.

One block, 64-wide, a SentencePiece vocabulary of the 256 bytes plus a few words, random weights (seeded): it answers
with nonsense, quickly, on a CPU, and that is all the tests need — the server loads it, runs it and streams an answer.
Written with the `gguf` package (llama.cpp's own writer), so the file is what a converter would make.

usage: python make-tiny-gguf.py OUT.gguf
"""
import sys

import gguf
import numpy as np

EMBED, FFN, HEADS, CONTEXT = 64, 128, 4, 2048
WORDS = ["▁the", "▁a", "▁is", "▁model", "▁ok", "▁hello", "▁world", "▁answer"]


def vocabulary():
    tokens, scores, types = ["<unk>", "<s>", "</s>"], [0.0, 0.0, 0.0], [
        gguf.TokenType.UNKNOWN, gguf.TokenType.CONTROL, gguf.TokenType.CONTROL]
    for byte in range(256):
        tokens.append(f"<0x{byte:02X}>")
        scores.append(0.0)
        types.append(gguf.TokenType.BYTE)
    for rank, word in enumerate(["▁"] + WORDS):
        tokens.append(word)
        scores.append(-float(rank))
        types.append(gguf.TokenType.NORMAL)
    return tokens, scores, types


def main(out):
    rng = np.random.default_rng(7)
    tokens, scores, types = vocabulary()
    writer = gguf.GGUFWriter(out, "llama")
    writer.add_name("pulumi-ops tiny test model")
    writer.add_context_length(CONTEXT)
    writer.add_embedding_length(EMBED)
    writer.add_block_count(1)
    writer.add_feed_forward_length(FFN)
    writer.add_head_count(HEADS)
    writer.add_head_count_kv(HEADS)
    writer.add_rope_dimension_count(EMBED // HEADS)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_file_type(gguf.LlamaFileType.ALL_F32)
    writer.add_tokenizer_model("llama")
    writer.add_token_list(tokens)
    writer.add_token_scores(scores)
    writer.add_token_types(types)
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(2)
    writer.add_unk_token_id(0)

    def weight(*shape):
        return (rng.standard_normal(shape) * 0.02).astype(np.float32)

    vocab = len(tokens)
    writer.add_tensor("token_embd.weight", weight(vocab, EMBED))
    writer.add_tensor("output_norm.weight", np.ones(EMBED, dtype=np.float32))
    writer.add_tensor("output.weight", weight(vocab, EMBED))
    writer.add_tensor("blk.0.attn_norm.weight", np.ones(EMBED, dtype=np.float32))
    for name in ("attn_q", "attn_k", "attn_v", "attn_output"):
        writer.add_tensor(f"blk.0.{name}.weight", weight(EMBED, EMBED))
    writer.add_tensor("blk.0.ffn_norm.weight", np.ones(EMBED, dtype=np.float32))
    writer.add_tensor("blk.0.ffn_gate.weight", weight(FFN, EMBED))
    writer.add_tensor("blk.0.ffn_up.weight", weight(FFN, EMBED))
    writer.add_tensor("blk.0.ffn_down.weight", weight(EMBED, FFN))

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


if __name__ == "__main__":
    main(sys.argv[1])
