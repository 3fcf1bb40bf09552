"""A tiny llama-architecture GGUF model for the real Ollama server in the runner's tests.

One block, 64-wide, a SentencePiece vocabulary of the 256 bytes plus a few words, random weights (seeded): it answers
with nonsense, quickly, on a CPU, and that is all the tests need — the server loads it, runs it and streams an answer.
Written with the `gguf` package (llama.cpp's own writer), so the file is what a converter would make.

The answer must be valid UTF-8: Ollama 0.30 and later run llama-server, whose chat parser refuses an answer that is
not ("unparsed Content-only output"), and a lone byte token 0x80-0xFF is never valid alone. So the embedding carries
a constant first dimension that survives the one block and its norms, and the output weights read it: the bytes
0x80-0xFF (and <unk>) get a logit far below the rest, the words a little above, and the answer is words and ASCII.

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
    # F16, as a converter writes a model by default: Ollama reads file type 0 (all F32) as unknown, and quantizes
    # only F16, BF16 and F32 weights it can name (a RunnerModel with `quantize` must work on this model).
    writer.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
    writer.add_tokenizer_model("llama")
    writer.add_token_list(tokens)
    writer.add_token_scores(scores)
    writer.add_token_types(types)
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(2)
    writer.add_unk_token_id(0)

    def weight(*shape):
        return (rng.standard_normal(shape) * 0.02).astype(np.float32)

    def f16(matrix):  # the matrices in F16; norms stay F32, as converters keep them
        return matrix.astype(np.float16)

    vocab = len(tokens)
    embedding = weight(vocab, EMBED)
    embedding[:, 0] = 5.0  # the constant dimension: after the norm about sqrt(EMBED), whatever the token
    output = weight(vocab, EMBED)
    output[:, 0] = 0.0
    for i, token in enumerate(tokens):
        if token == "<unk>" or (token.startswith("<0x") and int(token[3:5], 16) >= 0x80):
            output[i, 0] = -10.0  # never sampled: not UTF-8 alone
        elif token.startswith("\u2581"):
            output[i, 0] = 0.5  # words first
    writer.add_tensor("token_embd.weight", f16(embedding))
    writer.add_tensor("output_norm.weight", np.ones(EMBED, dtype=np.float32))
    writer.add_tensor("output.weight", f16(output))
    writer.add_tensor("blk.0.attn_norm.weight", np.ones(EMBED, dtype=np.float32))
    for name in ("attn_q", "attn_k", "attn_v", "attn_output"):
        writer.add_tensor(f"blk.0.{name}.weight", f16(weight(EMBED, EMBED)))
    writer.add_tensor("blk.0.ffn_norm.weight", np.ones(EMBED, dtype=np.float32))
    writer.add_tensor("blk.0.ffn_gate.weight", f16(weight(FFN, EMBED)))
    writer.add_tensor("blk.0.ffn_up.weight", f16(weight(FFN, EMBED)))
    writer.add_tensor("blk.0.ffn_down.weight", f16(weight(EMBED, FFN)))

    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


if __name__ == "__main__":
    main(sys.argv[1])
