"""Language-model shapes, from papers and published config files."""

from pylabs.physics.constants.registry import spec

_GPT3_URL = "https://arxiv.org/abs/2005.14165"
_LLAMA3_70B_HF_URL = "https://huggingface.co/meta-llama/Meta-Llama-3-70B"
_LLAMA3_70B_CONFIG_URL = "https://huggingface.co/meta-llama/Meta-Llama-3-70B/blob/main/config.json"
_LLAMA3_8B_HF_URL = "https://huggingface.co/meta-llama/Meta-Llama-3-8B"
_LLAMA3_8B_CONFIG_URL = "https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json"
_GPT2_XL_CONFIG_URL = "https://huggingface.co/openai-community/gpt2-xl/blob/main/config.json"
_GPT2_HF_URL = "https://huggingface.co/openai-community/gpt2/blob/main/config.json"
_GPT2_XL_HF_URL = "https://huggingface.co/openai-community/gpt2-xl/blob/main/config.json"
_LLAMA2_7B_URL = "https://arxiv.org/abs/2307.09288"
_LLAMA32_1B_CONFIG_URL = "https://huggingface.co/meta-llama/Llama-3.2-1B/blob/main/config.json"
_LLAMA32_3B_CONFIG_URL = "https://huggingface.co/meta-llama/Llama-3.2-3B/blob/main/config.json"

# GPT-2
GPT2_SMALL_PARAMS = spec(
    124e6, "params", "OpenAI GPT-2 (124M) on Hugging Face: 124 M parameters", _GPT2_HF_URL,
    label="GPT-2 (small) parameters")
GPT2_SMALL_LAYERS = spec(12.0, "layers", "GPT-2 config.json (n_layer)", _GPT2_HF_URL, label="GPT-2 (small) layers")
GPT2_SMALL_HIDDEN = spec(768.0, "1", "GPT-2 config.json (n_embd)", _GPT2_HF_URL, label="GPT-2 (small) width")
GPT2_SMALL_HEADS = spec(12.0, "heads", "GPT-2 config.json (n_head)", _GPT2_HF_URL, label="GPT-2 (small) heads")
GPT2_XL_PARAMS = spec(
    1.5576e9, "params", "OpenAI GPT-2 XL on Hugging Face: 1,557,611,200 parameters", _GPT2_XL_HF_URL,
    label="GPT-2 XL parameters")
GPT2_XL_LAYERS = spec(
    48.0, "layers", "OpenAI GPT-2 XL, Hugging Face config.json (n_layer)", _GPT2_XL_CONFIG_URL,
    label="GPT-2 XL layers")
GPT2_XL_HIDDEN = spec(
    1600.0, "1", "OpenAI GPT-2 XL, Hugging Face config.json (n_embd)", _GPT2_XL_CONFIG_URL,
    note="the upstream lab used 1,024 (GPT-2 Medium's width)", label="GPT-2 XL model width (d_model)")
GPT2_XL_HEADS = spec(
    25.0, "heads", "OpenAI GPT-2 XL, Hugging Face config.json (n_head)", _GPT2_XL_CONFIG_URL,
    note="the upstream lab used 16 (GPT-2 Medium's heads)", label="GPT-2 XL attention heads")
GPT2_XL_CONTEXT = spec(
    1024.0, "tokens", "OpenAI GPT-2 XL, Hugging Face config.json (n_positions)", _GPT2_XL_CONFIG_URL,
    label="GPT-2 XL trained context length")
GPT2_XL_VOCAB = spec(
    50257.0, "tokens", "OpenAI GPT-2 XL, Hugging Face config.json (vocab_size)", _GPT2_XL_CONFIG_URL,
    label="GPT-2 XL vocabulary size")

# GPT-3 (Brown et al. 2020, Table 2.1)
GPT3_PARAMS = spec(
    175e9, "params", "Brown et al. 2020, Language Models are Few-Shot Learners, Table 2.1", _GPT3_URL,
    label="GPT-3 parameters")
GPT3_LAYERS = spec(96.0, "layers", "Brown et al. 2020, Table 2.1", _GPT3_URL, label="GPT-3 layers")
GPT3_HIDDEN = spec(
    12288.0, "1", "Brown et al. 2020, Table 2.1 (d_model)", _GPT3_URL, label="GPT-3 model width (d_model)")
GPT3_HEADS = spec(96.0, "heads", "Brown et al. 2020, Table 2.1", _GPT3_URL, label="GPT-3 attention heads")
GPT3_SEQ = spec(
    2048.0, "tokens", "Brown et al. 2020, Sec. 2.1 (context window)", _GPT3_URL, label="GPT-3 context length")
GPT3_XL_PARAMS = spec(
    1.3e9, "params", "Brown et al. 2020, Table 2.1 (GPT-3 XL)", _GPT3_URL, label="GPT-3 XL parameters")
GPT3_XL_LAYERS = spec(24.0, "layers", "Brown et al. 2020, Table 2.1 (GPT-3 XL)", _GPT3_URL, label="GPT-3 XL layers")
GPT3_XL_HIDDEN = spec(
    2048.0, "1", "Brown et al. 2020, Table 2.1 (GPT-3 XL d_model)", _GPT3_URL, label="GPT-3 XL width (d_model)")
GPT3_XL_HEADS = spec(
    24.0, "heads", "Brown et al. 2020, Table 2.1 (GPT-3 XL: 24 heads of 128)", _GPT3_URL,
    note="handbook/errata.md#e8: the spec's 16 heads is the Megatron-DeepSpeed / Cerebras-GPT 1.3B config",
    label="GPT-3 XL attention heads")

# Llama 2 and Llama 3
LLAMA2_7B_PARAMS = spec(
    6.74e9, "params", "Llama-2-7b checkpoint: 6,738,415,616 parameters (Touvron et al. 2023 call it 7B)",
    _LLAMA2_7B_URL, label="Llama 2 7B parameters")
LLAMA2_7B_LAYERS = spec(
    32.0, "layers", "Llama-2-7b config.json (num_hidden_layers)", _LLAMA2_7B_URL, label="Llama 2 7B layers")
LLAMA2_7B_HIDDEN = spec(
    4096.0, "1", "Llama-2-7b config.json (hidden_size)", _LLAMA2_7B_URL, label="Llama 2 7B width")
LLAMA2_7B_HEADS = spec(
    32.0, "heads", "Llama-2-7b config.json (num_attention_heads)", _LLAMA2_7B_URL,
    label="Llama 2 7B attention heads")
LLAMA3_70B_PARAMS = spec(
    70e9, "params", "Meta Llama 3 model card (70B)",
    "https://github.com/meta-llama/llama3/blob/main/MODEL_CARD.md", label="Llama 3 70B parameters")
LLAMA3_70B_PARAMS_COUNTED = spec(
    70_553_706_496.0, "params",
    "Meta-Llama-3-70B checkpoint on Hugging Face: 70,553,706,496 parameters (safetensors total, shown as 70.6B)",
    _LLAMA3_70B_HF_URL,
    note="config.json's shapes give the same count: 80 layers x 855,654,400 (attention 8192x8192 twice and "
    "8192x1024 twice, MLP 3 x 8192 x 28,672, two norms) + untied embeddings 2 x 128,256 x 8192 + the final "
    "norm; the model card's '70B' rounds it; 2 B each in BF16 = 141.1 GB")
LLAMA3_70B_LAYERS = spec(80.0, "layers", "Meta-Llama-3-70B config.json (num_hidden_layers)", _LLAMA3_70B_CONFIG_URL)
LLAMA3_70B_QUERY_HEADS = spec(
    64.0, "heads", "Meta-Llama-3-70B config.json (num_attention_heads)", _LLAMA3_70B_CONFIG_URL)
LLAMA3_70B_KV_HEADS = spec(
    8.0, "heads", "Meta-Llama-3-70B config.json (num_key_value_heads: grouped-query attention)",
    _LLAMA3_70B_CONFIG_URL, note="8 query heads share each K/V head")
LLAMA3_70B_D_MODEL = spec(8192.0, "1", "Meta-Llama-3-70B config.json (hidden_size)", _LLAMA3_70B_CONFIG_URL)
LLAMA3_HEAD_DIM = spec(
    128.0, "1", "Meta-Llama-3 config.json: hidden_size / num_attention_heads (8192/64, 4096/32)",
    _LLAMA3_70B_CONFIG_URL)
LLAMA3_SEQ = spec(
    8192.0, "tokens", "Meta Llama 3 70B config.json (max_position_embeddings, the training context)",
    "https://huggingface.co/meta-llama/Meta-Llama-3-70B/blob/main/config.json")
LLAMA3_8B_PARAMS_COUNTED = spec(
    8.03e9, "params", "Meta-Llama-3-8B checkpoint on Hugging Face: 8,030,261,248 parameters", _LLAMA3_8B_HF_URL)
LLAMA3_8B_LAYERS = spec(32.0, "layers", "Meta-Llama-3-8B config.json (num_hidden_layers)", _LLAMA3_8B_CONFIG_URL)
LLAMA3_8B_QUERY_HEADS = spec(
    32.0, "heads", "Meta-Llama-3-8B config.json (num_attention_heads)", _LLAMA3_8B_CONFIG_URL,
    label="Llama-3-8B attention (query) heads")
LLAMA3_8B_KV_HEADS = spec(8.0, "heads", "Meta-Llama-3-8B config.json (num_key_value_heads)", _LLAMA3_8B_CONFIG_URL)
LLAMA3_8B_D_MODEL = spec(4096.0, "1", "Meta-Llama-3-8B config.json (hidden_size)", _LLAMA3_8B_CONFIG_URL)
LLAMA3_8B_MAX_CONTEXT = spec(
    8192.0, "tokens", "Meta-Llama-3-8B config.json (max_position_embeddings)", _LLAMA3_8B_CONFIG_URL,
    label="Llama-3-8B context window")
LLAMA31_CONTEXT_TOKENS = spec(
    131072.0, "tokens",
    "Llama-3.1-70B and Llama-3.1-8B config.json (max_position_embeddings: 131,072, the 128K window); the same "
    "layers, heads and parameter counts as Llama 3, whose own window is 8,192",
    "https://huggingface.co/meta-llama/Llama-3.1-70B/blob/main/config.json",
    note="Hugging Face, 'Llama 3.1 - 405B, 70B & 8B with multilinguality and long context' (2024): 128K context",
    label="Llama 3.1 context window")

# Llama 3.2 (small models)
LLAMA32_1B_PARAMS = spec(
    1.236e9, "params",
    "Derived from Llama-3.2-1B config.json (hidden 2,048, 16 layers, MLP 8,192, vocab 128,256, tied embeddings): "
    "1,235,814,400 parameters", _LLAMA32_1B_CONFIG_URL, label="Llama 3.2 1B parameters")
LLAMA32_1B_LAYERS = spec(16.0, "layers", "Llama-3.2-1B config.json (num_hidden_layers)", _LLAMA32_1B_CONFIG_URL)
LLAMA32_1B_KV_HEADS = spec(8.0, "heads", "Llama-3.2-1B config.json (num_key_value_heads)", _LLAMA32_1B_CONFIG_URL)
LLAMA32_1B_HEAD_DIM = spec(
    64.0, "1", "Llama-3.2-1B config.json (head_dim; hidden 2,048 / 32 heads)", _LLAMA32_1B_CONFIG_URL)
LLAMA32_3B_PARAMS = spec(
    3.213e9, "params",
    "Derived from Llama-3.2-3B config.json (hidden 3,072, 28 layers, MLP 8,192, vocab 128,256, tied embeddings): "
    "3,212,749,824 parameters", _LLAMA32_3B_CONFIG_URL, label="Llama 3.2 3B parameters")
LLAMA32_3B_LAYERS = spec(28.0, "layers", "Llama-3.2-3B config.json (num_hidden_layers)", _LLAMA32_3B_CONFIG_URL)
LLAMA32_3B_KV_HEADS = spec(8.0, "heads", "Llama-3.2-3B config.json (num_key_value_heads)", _LLAMA32_3B_CONFIG_URL)

# On-device keyboard model
GBOARD_CIFG_PARAMS = spec(
    1.4e6, "params",
    "Hard et al. 2018, Federated Learning for Mobile Keyboard Prediction (the CIFG next-word model has 1.4 M "
    "parameters)", "https://arxiv.org/abs/1811.03604")
