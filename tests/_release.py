"""Builds a tiny Clef release folder: a random-init backbone, a trained-from-scratch
byte-level tokenizer, the stand-in `joint_schema_model.py` and a joint head.

Real files in the real layout, so the release backend's glue (import from the folder,
`local_files_only` loading, encoding, batching, answer mapping) runs for real in seconds.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path

STANDIN = Path(__file__).with_name("release_standin") / "joint_schema_model.py"
SPECIALS = [
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
    "<|vision_start|>",
    "<|image_pad|>",
    "<|vision_end|>",
    "<think>",
    "</think>",
]
CORPUS = [
    "Read the complete state and schema. Decide every field jointly.",
    "SCHEMA FIELDS FIELD ID TYPE INSTRUCTION ALLOWED OPTIONS OPTION END FIELD",
    "The proposition is true or the answer is yes. The proposition is false or the answer is no.",
    '{"description":"refund","option_id":"billing"} noul choice score true false',
    "Customer wrote: I was charged twice for my order and want a refund today.",
    "Is the customer asking for a refund? How urgent is this? calm angry annoyed",
] * 20


def build_standin_release(folder: Path, *, hidden: int = 32, seed: int = 0) -> Path:
    import torch
    from safetensors.torch import save_file
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

    folder.mkdir(parents=True, exist_ok=True)
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=600,
        special_tokens=SPECIALS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(CORPUS, trainer)
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>"
    )
    fast.save_pretrained(folder)

    torch.manual_seed(seed)
    config = Qwen2Config(
        vocab_size=len(fast),
        hidden_size=hidden,
        intermediate_size=2 * hidden,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=4096,
        tie_word_embeddings=False,
    )
    Qwen2ForCausalLM(config).save_pretrained(folder)

    head_config = {"hidden_size": hidden, "width": 16}
    (folder / "joint_head_config.json").write_text(json.dumps(head_config))
    spec = importlib.util.spec_from_file_location("_standin_build", STANDIN)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    head = module.JointSchemaHead(**head_config)
    save_file(
        {k: v.contiguous() for k, v in head.state_dict().items()},
        str(folder / "joint_head.safetensors"),
    )
    shutil.copy(STANDIN, folder / "joint_schema_model.py")
    return folder
