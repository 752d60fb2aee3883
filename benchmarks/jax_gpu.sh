#!/usr/bin/env bash
# The whole GPU measurement in one script (under five minutes on one H100): decisions per second of the
# functional JAX engine with on-device random actions from 1,024 to 2**20 tables (heads-up and 6-max
# no-limit), its compile time and bytes per table, then the on-device PPO trainer's steps per second.
#     bash benchmarks/jax_gpu.sh [OUT_DIR]      # figures as JSON in OUT_DIR (default out/gpu)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-out/gpu}"
mkdir -p "$out"
python -c "import jax; print('devices:', jax.devices())"
nvidia-smi --query-gpu=name,memory.total --format=csv || true
timeout 150 python benchmarks/jax_throughput.py --modes device --seconds 1 --scan 32 \
  --sizes 1024 8192 65536 262144 1048576 --games "nolimit 2p" "nolimit 6p" --json "$out/engine.json"
timeout 110 python -m agent_zoo.jax_ppo train --game nolimit --num-envs 65536 --steps 20000000 --devices 1 --no-progress \
  --set minibatches=32 --json "$out/ppo.json"
cat "$out/ppo.json"
